import type { RouteDef } from '../shared/http/route';

/** Item reads (no Scan: it carries no partition key, so `dynamodb:LeadingKeys` cannot bound it). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;
/** Item writes. */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;
/** The rate-limit counters (shared/app/rate-limit.ts: `rl#…` keys of the counter store, `CTR#` items). */
export const RATE_LIMIT_COUNTERS = 'CTR#rl#';
/**
 * Reading an account may settle its plan (shared/app/billing/plan-state.ts: a downgrade, cancellation or grace
 * period that came due is applied and recorded on the first read after its time): an update of the account item
 * and a put of the plan-change history item, with only these attributes (`dynamodb:Attributes`; `v` is the item's
 * format version, shared/domain/format-version.ts).
 */
export const PLAN_SETTLE_ATTRIBUTES = [
  'pk', 'sk', 'plan', 'billing', 'billing_version', 'plan_change',
  'at', 'from', 'to', 'by', 'reason', 'event_id', 'customer_id', 'subscription_id', 'price_id', 'v',
] as const;
const ACCOUNTS = 'ACC#';

/** How a route uses the table, where it differs from the default (read for GET/HEAD, read and write otherwise, any item). */
export interface TableDeclaration {
  /** `read` (GetItem, BatchGetItem, Query, ConditionCheckItem) or `readWrite` (also PutItem, UpdateItem, DeleteItem, BatchWriteItem). */
  access?: 'read' | 'readWrite';
  /** The partition-key prefixes (shared/adapters/dynamodb/keys.ts) of the only items it may touch (`dynamodb:LeadingKeys`). */
  items?: readonly string[];
  /** The partition-key prefixes of the only items it may write (default `items`, else any item). */
  writes?: readonly string[];
}

/**
 * The exceptions, by route id, each read from the route's handler, use cases and middlewares. Every open route with
 * the `table` grant names its item types (a CDK test checks it); GETs that write by design name what they write.
 */
export const TABLE_DECLARATIONS: Readonly<Record<string, TableDeclaration>> = {
  // GETs that write by design
  /** Finalize marks the media item uploaded (or deletes it) and closes its upload link. */
  'get-media-finalize': { access: 'readWrite', writes: ['MEDIA#', 'UPLINK#'] },
  /** Reading a schedule settles a finished run (schedule item and its due marker), once. */
  'get-schedule': { access: 'readWrite', writes: ['SCH#', 'SCHDUE#'] },
  'get-schedules': { access: 'readWrite', writes: ['SCH#', 'SCHDUE#'] },
  /** The health check renews OAuth tokens under a lock and marks a lost sign-in (event, webhook delivery). */
  'get-connect-health': { access: 'readWrite', writes: ['ACC#', 'LOCK#', 'WHD#'] },
  /** The Overview stores each finished day's summary the first time it is shown (shared/app/dashboard/overview-charts.ts). */
  'get-dashboard': { access: 'readWrite', writes: ['STATS#'] },
  /** The calendar lists schedules, which settles a finished run as reading it through the API does. */
  'get-dashboard-calendar': { access: 'readWrite', writes: ['SCH#', 'SCHDUE#'] },
  // Open routes: only their item types
  'post-signup': { items: ['EMAIL#', 'ACC#', 'TOKEN#signup#', 'CTR#rl#'] },
  'post-signup-confirm': { items: ['TOKEN#signup#', 'ACC#', 'KEY#', 'CTR#rl#'] },
  'get-media-upload-page': { items: ['UPLINK#', 'ACC#'] },
  'post-media-upload-link-url': { items: ['UPLINK#', 'MEDIA#', 'CTR#rl#'] },
  'post-media-upload-link-complete': { items: ['UPLINK#', 'MEDIA#', 'CTR#rl#'] },
  'get-media-file': { items: ['MEDIA#'] },
  'head-media-file': { items: ['MEDIA#'] },
  /** The callback consumes the OAuth state, stores the connection (or a pick) under the account. */
  'get-oauth-callback': { access: 'readWrite', items: ['TOKEN#oauth-', 'ACC#', 'CTR#rl#'] },
  'post-oauth-pick': { items: ['TOKEN#oauth-', 'ACC#', 'CTR#rl#'] },
  'get-connect-page': { items: ['TOKEN#connect-link#', 'ACC#'] },
  'post-connect-page-oauth': { items: ['TOKEN#connect-link#', 'TOKEN#oauth-', 'ACC#', 'CTR#rl#'] },
  'post-connect-page-credentials': { items: ['TOKEN#connect-link#', 'ACC#', 'CTR#rl#'] },
  'post-billing-stripe-webhook': { items: ['BILLEVT#', 'BILLCUS#', 'ACC#'] },
  'post-dashboard-sign-in': { items: ['EMAIL#', 'TOKEN#signin#', 'CTR#rl#'] },
  'get-dashboard-sign-in-link': { items: ['TOKEN#signin#'] },
  'post-dashboard-sign-in-link': { items: ['TOKEN#signin#', 'SESSION#', 'ACC#', 'CTR#rl#'] },
  'get-review': { items: ['TOKEN#approval-link#', 'APR#', 'ACC#'] },
  /** Approving through a review link publishes the held post (the publish path) or settles its schedule. */
  'post-review': { items: ['TOKEN#approval-link#', 'APR#', 'ACC#', 'POST#', 'PUBDUE#', 'NETID#', 'LOCK#', 'CTR#', 'PACE#', 'MEDIA#', 'WHD#', 'SCH#', 'SCHDUE#', 'SLOT#'] },
  'post-oauth-register': { items: ['OAUTHCLIENT#', 'CTR#rl#'] },
  'post-oauth-token': { items: ['OAUTHCODE#', 'OAUTHTOKEN#', 'OAUTHGRANT#', 'OAUTHCLIENT#', 'ACC#', 'CTR#rl#'] },
  'post-oauth-revoke': { items: ['OAUTHTOKEN#', 'OAUTHGRANT#', 'CTR#rl#'] },
};

/** One table statement of a function's policy: these actions, on items whose partition key starts with a prefix. */
export interface TableStatement {
  actions: readonly string[];
  /** Partition-key prefixes (`dynamodb:LeadingKeys` StringLike `<prefix>*`); absent: any item. */
  prefixes?: readonly string[];
  /** The only attribute names the request may name (`dynamodb:Attributes` StringEquals); absent: any. */
  attributes?: readonly string[];
}

type TableRoute = Pick<RouteDef, 'id' | 'method' | 'auth' | 'rateLimit' | 'grants'>;

/** The route's declaration (TABLE_DECLARATIONS), empty when it has none. */
export const declarationOf = (route: Pick<RouteDef, 'id'>): TableDeclaration => TABLE_DECLARATIONS[route.id] ?? {};

/** The route's table access: declared, else `read` for GET/HEAD and `readWrite` for every other method. */
export const tableAccessOf = (route: Pick<RouteDef, 'id' | 'method'>): 'read' | 'readWrite' =>
  declarationOf(route).access ?? (route.method === 'GET' || route.method === 'HEAD' ? 'read' : 'readWrite');

/** Whether the route's middlewares count requests in the table (key routes per key; routes with their own limit). */
export const rateLimits = (route: Pick<RouteDef, 'auth' | 'rateLimit'>): boolean => route.auth === 'key' || route.rateLimit !== undefined;

/**
 * The table statements of a route's function (none without the `table` grant): reads (bounded to the declared
 * items), writes when its access is `readWrite` (bounded to the declared writes, else items), plus the update of its
 * rate-limit counters and the settling of a due plan change when the other statements do not already allow them.
 */
export function tableStatementsOf(route: TableRoute): TableStatement[] {
  if (!route.grants.includes('table')) return [];
  const { items } = declarationOf(route);
  const writes = declarationOf(route).writes ?? items;
  const write = tableAccessOf(route) === 'readWrite';
  const statements: TableStatement[] = [{ actions: TABLE_READ_ACTIONS, ...(items ? { prefixes: items } : {}) }];
  if (write) statements.push({ actions: TABLE_WRITE_ACTIONS, ...(writes ? { prefixes: writes } : {}) });
  const countersCovered = write && (!writes || writes.some((p) => RATE_LIMIT_COUNTERS.startsWith(p)));
  if (rateLimits(route) && !countersCovered) statements.push({ actions: ['dynamodb:UpdateItem'], prefixes: [RATE_LIMIT_COUNTERS] });
  const readsAccounts = route.auth !== 'open' || (items ?? [ACCOUNTS]).includes(ACCOUNTS);
  const writesAccounts = write && (!writes || writes.includes(ACCOUNTS));
  if (readsAccounts && !writesAccounts) statements.push({ actions: ['dynamodb:UpdateItem', 'dynamodb:PutItem'], prefixes: [ACCOUNTS], attributes: PLAN_SETTLE_ATTRIBUTES });
  return statements;
}
