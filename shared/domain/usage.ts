/** Counter keys and reset times for plan usage (posts a month, AI drafts a day, X credits a month). */
export function nextMonthStart(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}
export function nextDayStart(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
}
const ym = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 7);
const ymd = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

export const usageKeys = {
  posts: (accountId: string, nowMs: number) => `usage#posts#${accountId}#${ym(nowMs)}`,
  aiDrafts: (accountId: string, nowMs: number) => `usage#ai#${accountId}#${ymd(nowMs)}`,
  xCredits: (accountId: string, nowMs: number) => `usage#x#${accountId}#${ym(nowMs)}`,
  scheduled: (accountId: string) => `usage#scheduled#${accountId}`,
  webhooks: (accountId: string) => `usage#webhooks#${accountId}`,
};

/**
 * How many items a counter is spread over. The month's posts, the scheduled posts at a time and an actor's monthly
 * cap are written by every post (or fired schedule) of one account: spread over COUNTER_SHARDS items, a burst of one
 * account stays below what one DynamoDB partition takes per second (1,000 posts/s: 250 writes/s an item); each item
 * is allowed its share of the limit (counterShares), so the limit stays exact. Every read sums all the items, so
 * there are few. Other counters (rate-limit windows, AI drafts, webhooks, X credits) see a few writes a second at
 * most and stay one item.
 */
export const COUNTER_SHARDS = 4;
const SHARDED_PREFIXES = ['usage#posts#', 'usage#scheduled#', 'cap#'];

export function counterShards(key: string): number {
  return SHARDED_PREFIXES.some((p) => key.startsWith(p)) ? COUNTER_SHARDS : 1;
}

/** Each item's share of `limit` over `shards` items: equal parts, the first items one more; they add up to the limit. */
export function counterShares(limit: number, shards: number): number[] {
  const base = Math.floor(Math.max(0, limit) / shards);
  const extra = Math.max(0, limit) % shards;
  return Array.from({ length: shards }, (_, i) => base + (i < extra ? 1 : 0));
}
