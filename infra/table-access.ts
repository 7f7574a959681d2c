import type { RouteDef } from '../shared/http/route';
import type { TableCall } from '../shared/adapters/dynamodb/table-guard';

/** Item reads (no Scan: it carries no partition key, so `dynamodb:LeadingKeys` cannot bound it). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;
/** Item writes. */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;
/** The rate-limit counters (shared/app/rate-limit.ts: `rl#…` keys of the counter store, `CTR#` items). */
export const RATE_LIMIT_COUNTERS = 'CTR#rl#';

/**
 * Reading an account may settle its plan (shared/app/billing/plan-state.ts: a downgrade, cancellation or grace
 * period that came due is applied and recorded on the first read after its time): an update of the account item
 * and a put of the plan-change history item, with only these attributes (`dynamodb:Attributes`).
 */
export const PLAN_SETTLE_ATTRIBUTES = [
  'pk', 'sk', 'plan', 'billing', 'billing_version', 'plan_change',
  'at', 'from', 'to', 'by', 'reason', 'event_id', 'customer_id', 'subscription_id', 'price_id',
] as const;
const ACCOUNTS = 'ACC#';

/** One table statement of a function's policy: these actions, on items whose partition key starts with a prefix. */
export interface TableStatement {
  actions: readonly string[];
  /** Partition-key prefixes (`dynamodb:LeadingKeys` StringLike `<prefix>*`); absent: any item. */
  prefixes?: readonly string[];
  /** The only attribute names the request may name (`dynamodb:Attributes` StringEquals); absent: any. */
  attributes?: readonly string[];
}

type TableRoute = Pick<RouteDef, 'method' | 'auth' | 'rateLimit' | 'grants' | 'tableAccess' | 'tableItems' | 'tableWrites'>;

/** The route's table access: declared, else `read` for GET/HEAD and `readWrite` for every other method. */
export const tableAccessOf = (route: Pick<RouteDef, 'method' | 'tableAccess'>): 'read' | 'readWrite' =>
  route.tableAccess ?? (route.method === 'GET' || route.method === 'HEAD' ? 'read' : 'readWrite');

/** Whether the route's middlewares count requests in the table (key routes per key; routes with their own limit). */
export const rateLimits = (route: Pick<RouteDef, 'auth' | 'rateLimit'>): boolean => route.auth === 'key' || route.rateLimit !== undefined;

/**
 * The table statements of a route's function (none without the `table` grant): reads, writes when its access is
 * `readWrite` (bounded to `tableWrites`, else `tableItems`), reads bounded to `tableItems` when declared, plus the update of its rate-limit counters when the
 * other statements do not already allow it, and the settling of a due plan change when it reads accounts.
 */
export function tableStatementsOf(route: TableRoute): TableStatement[] {
  if (!route.grants.includes('table')) return [];
  const writes = route.tableWrites ?? route.tableItems;
  const write = tableAccessOf(route) === 'readWrite';
  const statements: TableStatement[] = [{ actions: TABLE_READ_ACTIONS, ...(route.tableItems ? { prefixes: route.tableItems } : {}) }];
  if (write) statements.push({ actions: TABLE_WRITE_ACTIONS, ...(writes ? { prefixes: writes } : {}) });
  const countersCovered = write && (!writes || writes.some((p) => RATE_LIMIT_COUNTERS.startsWith(p)));
  if (rateLimits(route) && !countersCovered) statements.push({ actions: ['dynamodb:UpdateItem'], prefixes: [RATE_LIMIT_COUNTERS] });
  const readsAccounts = route.auth !== 'open' || (route.tableItems ?? [ACCOUNTS]).includes(ACCOUNTS);
  const writesAccounts = write && (!writes || writes.includes(ACCOUNTS));
  if (readsAccounts && !writesAccounts) statements.push({ actions: ['dynamodb:UpdateItem', 'dynamodb:PutItem'], prefixes: [ACCOUNTS], attributes: PLAN_SETTLE_ATTRIBUTES });
  return statements;
}

/** Whether the statements allow the call, as IAM decides it (every leading key must match a prefix of the statement). */
export function allowsCall(statements: readonly TableStatement[], call: TableCall): boolean {
  return statements.some((s) => s.actions.includes(call.action)
    && (!s.prefixes || (call.leadingKeys.length > 0 && call.leadingKeys.every((k) => s.prefixes!.some((p) => k.startsWith(p)))))
    && (!s.attributes || (call.attributes !== undefined && call.attributes.every((a) => s.attributes!.includes(a)))));
}
