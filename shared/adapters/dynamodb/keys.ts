/**
 * Every key shape of the single table, in one module (see docs/key-design.md).
 * pk/sk: the item's identity; gsi1pk/gsi1sk: the one secondary index; expires_at: the TTL attribute (epoch seconds).
 */
export const keys = {
  account: (accountId: string) => ({ pk: `ACC#${accountId}`, sk: 'ACCOUNT' }),
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  apiKey: (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' }),
  apiKeyByAccount: (accountId: string, keyId: string) => ({ gsi1pk: `ACC#${accountId}#KEYS`, gsi1sk: keyId }),
  brand: (accountId: string, brandId: string) => ({ pk: `ACC#${accountId}`, sk: `BRAND#${brandId}` }),
  brandPrefix: 'BRAND#',
  token: (kind: string, hash: string) => ({ pk: `TOKEN#${kind}#${hash}`, sk: 'TOKEN' }),
  counter: (key: string) => ({ pk: `CTR#${key}`, sk: 'CTR' }),
  /** Item `shard` of a counter spread over several items (shared/domain/usage.ts counterShards); item 0 is `counter`. */
  counterShard: (key: string, shard: number) => ({ pk: shard === 0 ? `CTR#${key}` : `CTR#${key}#s${shard}`, sk: 'CTR' }),
  connection: (accountId: string, brandId: string, platform: string) => ({ pk: `ACC#${accountId}`, sk: `CON#${brandId}#${platform}` }),
  connectionPrefix: 'CON#',
  /**
   * The renewal sweep's index of connections (on the connection item's own gsi1, unused otherwise): sharded
   * CONSWEEP#0..3 by the account id's last character, sorted by sweep_at (ms, zero-padded) then the item's key.
   */
  connectionSweep: (accountId: string, brandId: string, platform: string, sweepAt: number) => ({
    gsi1pk: `CONSWEEP#${(accountId.charCodeAt(accountId.length - 1) || 0) % 4}`,
    gsi1sk: `${String(Math.max(0, Math.floor(sweepAt))).padStart(15, '0')}#${accountId}#${brandId}#${platform}`,
  }),
  connectionSweepShards: ['CONSWEEP#0', 'CONSWEEP#1', 'CONSWEEP#2', 'CONSWEEP#3'],
  post: (postId: string) => ({ pk: `POST#${postId}`, sk: 'POST' }),
  postByAccount: (accountId: string, postId: string) => ({ gsi1pk: `ACC#${accountId}#POSTS`, gsi1sk: postId }),
  /** A network of a post an older release stored as an item of its own (read only: networks live in the post item now). */
  network: (postId: string, platform: string) => ({ pk: `POST#${postId}`, sk: `NET#${platform}` }),
  networkPrefix: 'NET#',
  /** A published network's own post id → our post (pointer item; posts before the single post item used networkById). */
  networkPointer: (accountId: string, platform: string, networkPostId: string) => ({ pk: `NETID#${accountId}#${platform}#${networkPostId}`, sk: 'NETID' }),
  networkById: (accountId: string, platform: string, networkPostId: string) => ({ gsi1pk: `NETID#${accountId}#${platform}#${networkPostId}`, gsi1sk: 'NET' }),
  event: (postId: string, eventId: string) => ({ pk: `POST#${postId}`, sk: `EVT#${eventId}` }),
  eventByAccount: (accountId: string, eventId: string) => ({ gsi1pk: `ACC#${accountId}#EVENTS`, gsi1sk: eventId }),
  accountEvent: (accountId: string, eventId: string) => ({ pk: `ACC#${accountId}#EVT`, sk: eventId }),
  lock: (key: string) => ({ pk: `LOCK#${key}`, sk: 'LOCK' }),
  pace: (key: string) => ({ pk: `PACE#${key}`, sk: 'PACE' }),
  schedule: (scheduleId: string) => ({ pk: `SCH#${scheduleId}`, sk: 'SCH' }),
  /** The account's schedules by run_at (ISO UTC) then id: range queries by date, ascending. */
  scheduleByAccount: (accountId: string, runAt: string, scheduleId: string) => ({ gsi1pk: `ACC#${accountId}#SCHED`, gsi1sk: `${runAt}#${scheduleId}` }),
  /**
   * The due index of scheduled posts across accounts (the reconciliation sweep): one marker item per pending
   * schedule, sharded SCHDUE#0..3 by the id's last character, sorted by run_at (ISO UTC) then id. A separate item
   * because the schedule item's gsi1 is already its account's listing.
   */
  scheduleDue: (scheduleId: string, runAt: string) => ({
    pk: `SCHDUE#${(scheduleId.charCodeAt(scheduleId.length - 1) || 0) % 4}`, sk: `${runAt}#${scheduleId}`,
  }),
  scheduleDueShards: ['SCHDUE#0', 'SCHDUE#1', 'SCHDUE#2', 'SCHDUE#3'],
  /**
   * The reconciliation's due index of posts (shared/app/publish/reconcile.ts): one marker item per post with work
   * not yet known to be finished, sharded PUBDUE#0..3 by the id's last character, sorted by due time (ms) then id.
   */
  postDue: (postId: string, dueMs: number) => ({
    pk: `PUBDUE#${(postId.charCodeAt(postId.length - 1) || 0) % 4}`, sk: `${String(Math.max(0, Math.floor(dueMs))).padStart(15, '0')}#${postId}`,
  }),
  postDueShards: ['PUBDUE#0', 'PUBDUE#1', 'PUBDUE#2', 'PUBDUE#3'],
  /** The local scheduler's timer (local runtime only: EventBridge Scheduler's stand-in), due by run_at on gsi1. */
  timer: (name: string) => ({ pk: `TIMER#${name}`, sk: 'TIMER' }),
  timerDue: (name: string, runAt: string) => ({ gsi1pk: 'TIMERS', gsi1sk: `${runAt}#${name}` }),
  timersDue: 'TIMERS',
  recurring: (recurringId: string) => ({ pk: `REC#${recurringId}`, sk: 'REC' }),
  recurringByAccount: (accountId: string, recurringId: string) => ({ gsi1pk: `ACC#${accountId}#REC`, gsi1sk: recurringId }),
  /** A brand's posting slot taken by a scheduled post (next_slot), keyed by the slot's instant (ISO UTC). */
  slot: (brandId: string, instant: string) => ({ pk: `SLOT#${brandId}`, sk: instant }),
  // Webhooks: endpoints under the account; one item per delivery, indexed by due time while pending (sharded
  // WHDUE#0..3, so the sweep reads four partitions); the delivery log per endpoint, newest first by try start.
  webhook: (accountId: string, webhookId: string) => ({ pk: `ACC#${accountId}`, sk: `WEBHOOK#${webhookId}` }),
  webhookPrefix: 'WEBHOOK#',
  delivery: (deliveryId: string) => ({ pk: `WHD#${deliveryId}`, sk: 'DLV' }),
  deliveryDue: (deliveryId: string, dueMs: number) => ({
    gsi1pk: `WHDUE#${parseInt(deliveryId[0] ?? '0', 16) % 4 || 0}`, gsi1sk: `${String(Math.max(0, Math.floor(dueMs))).padStart(15, '0')}#${deliveryId}`,
  }),
  deliveryDueShards: ['WHDUE#0', 'WHDUE#1', 'WHDUE#2', 'WHDUE#3'],
  deliveryAttempt: (webhookId: string, startedMs: number, deliveryId: string, attempt: number) => ({
    pk: `WHLOG#${webhookId}`, sk: `${String(startedMs).padStart(15, '0')}#${deliveryId}#${String(attempt).padStart(3, '0')}`,
  }),
  media: (mediaId: string) => ({ pk: `MEDIA#${mediaId}`, sk: 'MEDIA' }),
  mediaPrefix: 'MEDIA#',
  /** The account's media by creation time (written with the item; listUploaded filters the uploaded ones). */
  mediaByAccount: (accountId: string, createdAt: string, mediaId: string) => ({ gsi1pk: `ACC#${accountId}#MEDIA`, gsi1sk: `${createdAt}#${mediaId}` }),
  uploadLink: (hash: string) => ({ pk: `UPLINK#${hash}`, sk: 'UPLINK' }),
  uploadLinkPrefix: 'UPLINK#',
  // Billing: each provider event claimed once; customer → account; the plan-change history per account.
  billingEvent: (eventId: string) => ({ pk: `BILLEVT#${eventId}`, sk: 'BILLEVT' }),
  billingCustomer: (customerId: string) => ({ pk: `BILLCUS#${customerId}`, sk: 'BILLCUS' }),
  planChange: (accountId: string, at: string, seq: number) => ({ pk: `ACC#${accountId}`, sk: `PLANCHG#${at}#${String(seq).padStart(8, '0')}` }),
  planChangePrefix: 'PLANCHG#',
  // Dashboard: sessions by hash.
  session: (hash: string) => ({ pk: `SESSION#${hash}`, sk: 'SESSION' }),
  // MCP OAuth: clients by the hash of client_id (a CIMD client_id is a URL), AI apps under the account
  // with a pointer per client (one live app per account and client), codes and tokens by hash.
  oauthClient: (clientIdHash: string) => ({ pk: `OAUTHCLIENT#${clientIdHash}`, sk: 'CLIENT' }),
  aiApp: (accountId: string, appId: string) => ({ pk: `ACC#${accountId}`, sk: `APP#${appId}` }),
  aiAppPrefix: 'APP#',
  aiAppByClient: (accountId: string, clientIdHash: string) => ({ pk: `ACC#${accountId}`, sk: `APPCLIENT#${clientIdHash}` }),
  oauthCode: (hash: string) => ({ pk: `OAUTHCODE#${hash}`, sk: 'CODE' }),
  oauthToken: (hash: string) => ({ pk: `OAUTHTOKEN#${hash}`, sk: 'TOKEN' }),
  oauthGrant: (grantId: string) => ({ pk: `OAUTHGRANT#${grantId}`, sk: 'GRANT' }),
  // Guardrails per actor (API key or AI app) under the account.
  guardrails: (accountId: string, kind: string, id: string) => ({ pk: `ACC#${accountId}`, sk: `GUARD#${kind}#${id}` }),
  guardrailsPrefix: 'GUARD#',
  // Approvals: the held post by id, listed per account newest first; rules per account or brand.
  approval: (approvalId: string) => ({ pk: `APR#${approvalId}`, sk: 'APR' }),
  approvalByAccount: (accountId: string, approvalId: string) => ({ gsi1pk: `ACC#${accountId}#APR`, gsi1sk: approvalId }),
  approvalRule: (accountId: string, scope: string) => ({ pk: `ACC#${accountId}`, sk: `APRRULE#${scope}` }),
  approvalRulePrefix: 'APRRULE#',
  // White label of the account or a brand.
  branding: (accountId: string, scope: string) => ({ pk: `ACC#${accountId}`, sk: `BRANDING#${scope}` }),
  brandingPrefix: 'BRANDING#',
  // The Overview's final daily summaries (its own partition: never read by the account's publish-context query).
  daySummary: (accountId: string, day: string) => ({ pk: `STATS#${accountId}`, sk: `DAY#${day}` }),
  engagementDay: (accountId: string, day: string) => ({ pk: `STATS#${accountId}`, sk: `ENG#${day}` }),
  // Post analytics: one item per post and network in the account's analytics partition (post ids are ULIDs, so
  // a range of them is a date range); the sweep's due index on the item's gsi1, sharded ANLDUE#0..3 by the post id's
  // last character, sorted by next_sync_at (ms, zero-padded) then the item's key.
  analyticsPartition: (accountId: string) => `ACC#${accountId}#ANL`,
  analytics: (accountId: string, postId: string, platform: string) => ({ pk: `ACC#${accountId}#ANL`, sk: `${postId}#${platform}` }),
  analyticsDue: (accountId: string, postId: string, platform: string, dueMs: number) => ({
    gsi1pk: `ANLDUE#${(postId.charCodeAt(postId.length - 1) || 0) % 4}`,
    gsi1sk: `${String(Math.max(0, Math.floor(dueMs))).padStart(15, '0')}#${accountId}#${postId}#${platform}`,
  }),
  analyticsDueShards: ['ANLDUE#0', 'ANLDUE#1', 'ANLDUE#2', 'ANLDUE#3'],
} as const;

export const GSI1 = 'gsi1';
