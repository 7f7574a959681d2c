import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { traceClient } from '../../tracing';
import { dropNoOpLogging } from '../aws/sdk-logging';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { FORMAT_VERSION } from '../../domain/format-version';
import type { SdkRequestHandler } from '../local/in-process-transport';
import { requestHandlerOptions } from '../aws/transport-signer';
import { fitForInProcess } from '../aws/in-process-client';

/**
 * The document client every DynamoDB store uses; `endpoint` points it at the embedded engine locally, and
 * `requestHandler` (local runtime) hands its requests to that engine in-process instead of over HTTP (signed by the
 * handler's own signer when it has one, and then without the SDK's HTTP-only work: aws/in-process-client.ts).
 */
export function documentClient(opts: { region: string; endpoint?: string; requestHandler?: SdkRequestHandler }): DynamoDBDocumentClient {
  const client = traceClient(new DynamoDBClient({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    ...(opts.endpoint ? requestHandlerOptions(opts.requestHandler) : {}),
  }));
  dropNoOpLogging(client);
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  doc.middlewareStack.add((next) => async (args) => next({ ...args, input: stampFormat(args.input) }), { step: 'initialize', name: 'stampFormatVersion' });
  return fitForInProcess(doc, opts.endpoint ? opts.requestHandler : undefined);
}

/**
 * Every item written whole (Put, in a transaction or a batch too) carries the format version `v`
 * (shared/ports/format-version.ts), unless its writer set one; readers take an item without `v` as the previous
 * format, which reads as today's, and the entities' reads (entity.ts `fromItem`) leave `v` out of what the domain
 * sees. Counter and lock items made by an update hold numbers only and carry none.
 */
export function stampFormat(input: object): object {
  const stamp = (item: Record<string, unknown> | undefined) => (item && item.v === undefined ? { ...item, v: FORMAT_VERSION } : item);
  const i = input as {
    Item?: Record<string, unknown>;
    TransactItems?: { Put?: { Item?: Record<string, unknown> } }[];
    RequestItems?: Record<string, { PutRequest?: { Item?: Record<string, unknown> } }[]>;
  };
  if (i.Item && typeof i.Item === 'object') return { ...i, Item: stamp(i.Item) };
  if (Array.isArray(i.TransactItems)) {
    return { ...i, TransactItems: i.TransactItems.map((t) => (t.Put ? { ...t, Put: { ...t.Put, Item: stamp(t.Put.Item) } } : t)) };
  }
  if (i.RequestItems && typeof i.RequestItems === 'object' && Object.values(i.RequestItems).some((rs) => Array.isArray(rs))) {
    return {
      ...i,
      RequestItems: Object.fromEntries(Object.entries(i.RequestItems).map(([table, rs]) =>
        [table, Array.isArray(rs) ? rs.map((r) => (r.PutRequest ? { ...r, PutRequest: { ...r.PutRequest, Item: stamp(r.PutRequest.Item) } } : r)) : rs])),
    };
  }
  return input;
}

export function isConditionFailure(err: unknown): err is ConditionalCheckFailedException {
  return err instanceof ConditionalCheckFailedException || (err as { name?: string })?.name === 'ConditionalCheckFailedException';
}

export interface TableRef {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/** Runs a query to the end, following LastEvaluatedKey, and answers every item. */
export async function queryAll(t: TableRef, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await t.doc.send(new QueryCommand({ ...input, TableName: t.tableName, ExclusiveStartKey: start }));
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}
