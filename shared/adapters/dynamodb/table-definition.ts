/**
 * The single table's physical shape, shared by the local runtime and the tests (the CDK data stack declares the
 * same: pk/sk strings, one GSI gsi1 on gsi1pk/gsi1sk projecting everything, TTL on expires_at).
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const TABLE_DEFINITION: Omit<CreateTableCommandInput, 'TableName'> = {
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'gsi1pk', AttributeType: 'S' },
    { AttributeName: 'gsi1sk', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'gsi1',
      KeySchema: [
        { AttributeName: 'gsi1pk', KeyType: 'HASH' },
        { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
  BillingMode: 'PAY_PER_REQUEST',
};

export const TTL_ATTRIBUTE = 'expires_at';
