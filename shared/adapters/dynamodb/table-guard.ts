import { AsyncLocalStorage } from 'node:async_hooks';

/** One DynamoDB call as IAM sees it: the action and the partition-key values it touches (`dynamodb:LeadingKeys`). */
export interface TableCall {
  action: string;
  leadingKeys: string[];
  /** The top-level attribute names a PutItem or UpdateItem names (`dynamodb:Attributes`), keys included. */
  attributes?: string[];
}

/**
 * A check run before every DynamoDB call made inside `tableCallGuard.run(check, …)`; it throws to refuse the call.
 * Nothing sets it in Lambda (IAM does the checking there); the local runtime sets one per route invocation, so a
 * function that touches items its route's policy does not allow fails locally as it would in AWS.
 */
export const tableCallGuard = new AsyncLocalStorage<(call: TableCall) => void>();

type Attr = unknown;
const text = (v: Attr): string | undefined => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { S?: unknown }).S === 'string') return (v as { S: string }).S;
  return undefined;
};
const pkOf = (item: unknown, attr = 'pk'): string | undefined => (item && typeof item === 'object' ? text((item as Record<string, Attr>)[attr]) : undefined);

/** The partition-key value a Query's key condition names (`pk = :v` or, on the index, `gsi1pk = :v`). */
function queryKey(input: Record<string, unknown>): string | undefined {
  const attr = input.IndexName ? 'gsi1pk' : 'pk';
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, Attr>;
  const condition = String(input.KeyConditionExpression ?? '');
  for (const m of condition.matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const name = m[1].startsWith('#') ? names[m[1]] : m[1];
    if (name === attr) return text(values[m[2]]);
  }
  return undefined;
}

const NOT_ATTRIBUTES = new Set(['set', 'add', 'remove', 'delete', 'and', 'or', 'not', 'between', 'in', 'attribute_exists', 'attribute_not_exists',
  'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append']);

/** The top-level attribute names of update and condition expressions (`#name` resolved, bare names as written). */
function expressionAttributes(input: Record<string, unknown>): string[] {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const out = new Set<string>();
  for (const expr of [input.UpdateExpression, input.ConditionExpression]) {
    for (const m of String(expr ?? '').matchAll(/(?<![:\w.#])(#?[A-Za-z_][A-Za-z0-9_]*)/g)) {
      const token = m[1];
      if (token.startsWith('#')) { if (names[token]) out.add(names[token]); } else if (!NOT_ATTRIBUTES.has(token.toLowerCase())) out.add(token);
    }
  }
  return [...out];
}

/** The IAM action and leading keys of an SDK command (`GetItemCommand`…), from its input (marshalled or not). */
export function tableCallOf(commandName: string, input: Record<string, unknown>): TableCall {
  const action = `dynamodb:${commandName.replace(/Command$/, '')}`;
  const keys: Array<string | undefined> = [];
  switch (commandName) {
    case 'GetItemCommand': case 'DeleteItemCommand': keys.push(pkOf(input.Key)); break;
    case 'UpdateItemCommand':
      keys.push(pkOf(input.Key));
      return { action, leadingKeys: keys.filter((k): k is string => typeof k === 'string'), attributes: [...new Set([...Object.keys((input.Key ?? {}) as object), ...expressionAttributes(input)])] };
    case 'PutItemCommand':
      keys.push(pkOf(input.Item));
      return { action, leadingKeys: keys.filter((k): k is string => typeof k === 'string'), attributes: [...new Set([...Object.keys((input.Item ?? {}) as object), ...expressionAttributes(input)])] };
    case 'QueryCommand': keys.push(queryKey(input)); break;
    case 'BatchGetItemCommand':
      for (const req of Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>)) keys.push(...(req.Keys ?? []).map((k) => pkOf(k)));
      break;
    case 'BatchWriteItemCommand':
      for (const reqs of Object.values((input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item?: unknown }; DeleteRequest?: { Key?: unknown } }>>)) {
        keys.push(...reqs.map((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)));
      }
      break;
    default: break;
  }
  return { action, leadingKeys: keys.filter((k): k is string => typeof k === 'string') };
}

/** Adds the guard to a DynamoDB client's middleware stack (a no-op outside `tableCallGuard.run`). */
export function addTableCallGuard(client: { middlewareStack: { add: (mw: never, opts: { step: 'build'; name: string }) => void } }): void {
  const mw = (next: (args: { input: Record<string, unknown> }) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: Record<string, unknown> }) => {
    const check = tableCallGuard.getStore();
    if (check) check(tableCallOf(context.commandName ?? '', args.input));
    return next(args);
  };
  client.middlewareStack.add(mw as never, { step: 'build', name: 'tableCallGuard' });
}
