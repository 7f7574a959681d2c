import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { GuardrailStore, Guardrails } from '../../ports/guardrails';
import { queryAll, type TableRef } from './client';
import { keys, strip } from './keys';

/** Guardrails as one item per actor under the account's partition (GUARD#<kind>#<id>). */
export class DynamoGuardrailStore implements GuardrailStore {
  constructor(private readonly t: TableRef) {}

  async get(accountId: string, kind: Guardrails['kind'], id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.guardrails(accountId, kind, id), ConsistentRead: true }));
    return res.Item ? strip<Guardrails>(res.Item) : undefined;
  }

  async put(g: Guardrails) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.guardrails(g.account_id, g.kind, g.id), ...g } }));
  }

  async list(accountId: string) {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': `ACC#${accountId}`, ':sk': keys.guardrailsPrefix }, ConsistentRead: true,
    });
    return items.map((i) => strip<Guardrails>(i));
  }
}
