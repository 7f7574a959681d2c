/** Counter keys and reset times for plan usage (posts a month, AI drafts a day, X credits a month). */
export function monthStart(nowMs: number): Date {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}
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
