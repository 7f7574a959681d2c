import type { Deps } from '../deps';
import type { FreshCredentialsDeps } from '../oauth/credentials';
import { freshCredentials } from '../oauth/credentials';
import { networkContext } from '../network-context';
import { errorFields, log } from '../../log';
import { emptyMetrics, nextSyncAt, normalise, type PostAnalytics } from '../../domain/analytics';
import type { NetworkResult } from '../../domain/post';
import type { PostRecord } from '../../ports/publishing';
import { RateLimitedError } from '../../domain/errors';

/** What collecting figures reaches: the analytics store, the adapters, and what fresh credentials need. */
export type CollectDeps = FreshCredentialsDeps & Pick<Deps, 'analytics' | 'networks' | 'settings'>;

/**
 * Starts tracking a network of a post the moment it is published: pending and due in an hour (the sweep's first
 * look), or not_offered and never due where the network has no analytics. Once per post and network.
 * `publishedMs`: when it was published, for a post published before analytics existed (default: now).
 */
export async function trackPublished(deps: Pick<Deps, 'analytics' | 'clock' | 'networks'>, post: PostRecord, result: NetworkResult, publishedMs?: number): Promise<void> {
  if (!result.ok || result.status !== 'published' || !result.id) return;
  const now = deps.clock.now();
  const at = Math.min(publishedMs ?? now, now);
  const offered = !!deps.networks[result.platform]?.metrics;
  const item: PostAnalytics = {
    post_id: post.id, account_id: post.account_id, brand_id: post.brand_id, platform: result.platform, network_post_id: result.id,
    ...(result.url ? { url: result.url } : {}), published_at: new Date(at).toISOString(),
    metrics: emptyMetrics(), source: {}, status: offered ? 'pending' : 'not_offered',
  };
  try {
    await deps.analytics.track(item, offered ? nextSyncAt(at, now) : undefined);
  } catch (err) {
    // the post is published either way: its analytics start at the first on-demand read (backfill) instead
    log.warn('analytics: tracking failed', { post_id: post.id, platform: result.platform, ...errorFields(err) });
  }
}

/** What one read of a batch did. */
export type BatchOutcome = 'read' | 'failed' | 'busy';

/**
 * Reads the figures of claimed items of ONE connection (same account, brand and network; at most the network's
 * batch) in one request, after the connection's pacing slot, and stores each outcome with its next due time:
 * synced with the figures; gone (never again) when the network no longer has the post; not_offered (never again)
 * when the connection cannot have figures for it; reauth_required or failed
 * (the previous figures kept) on a failure, due again by the cadence. The read waits for the connection's pacing
 * slot and, for a network limited per app, the app's slot too. A pacing slot too far away answers 'busy'
 * without a request (the items stay due for the next sweep).
 */
export async function readBatch(deps: CollectDeps, items: PostAnalytics[]): Promise<BatchOutcome> {
  const first = items[0];
  const adapter = deps.networks[first.platform];
  const now = () => deps.clock.now();
  const save = (a: PostAnalytics, u: Parameters<Deps['analytics']['saveFetch']>[3]) => deps.analytics.saveFetch(a.account_id, a.post_id, a.platform, u);
  const next = (a: PostAnalytics) => nextSyncAt(Date.parse(a.published_at), now());
  const failAll = async (status: 'failed' | 'reauth_required', error: string) => {
    await Promise.all(items.map((a) => save(a, { status, error: error.slice(0, 300), next_sync_at: next(a) })));
    return 'failed' as const;
  };
  if (!adapter?.metrics) {
    await Promise.all(items.map((a) => save(a, { status: 'not_offered', metrics: emptyMetrics(), source: {}, next_sync_at: undefined })));
    return 'read';
  }
  const connection = await deps.connections.get(first.account_id, first.brand_id, first.platform);
  if (!connection) return failAll('failed', `the brand's ${first.platform} connection was removed`);
  if (connection.status === 'reauth_required') return failAll('reauth_required', `${first.platform} needs a new sign-in (reconnect it to resume analytics)`);
  const fresh = await freshCredentials(deps, connection);
  if (!fresh.ok) return failAll(fresh.failure.kind === 'reauth' ? 'reauth_required' : 'failed', fresh.failure.error);
  const ctx = networkContext(deps, fresh.credentials);
  try {
    const wait = await ctx.pace(`analytics:${first.platform}:${connection.id}`, adapter.metrics.spacingMs);
    const appWait = adapter.metrics.appSpacingMs ? await ctx.pace(`analytics:${first.platform}:app`, adapter.metrics.appSpacingMs) : 0;
    if (Math.max(wait, appWait) > 0) await ctx.sleep(Math.max(wait, appWait));
  } catch (err) {
    if (err instanceof RateLimitedError) return 'busy';
    throw err;
  }
  let answer: Awaited<ReturnType<typeof adapter.metrics.read>>;
  try {
    answer = await adapter.metrics.read(items.map((a) => ({ id: a.network_post_id, ...(a.url ? { url: a.url } : {}) })), ctx);
  } catch (err) {
    log.warn('analytics: read failed', { platform: first.platform, ...errorFields(err) });
    return failAll('failed', (err as Error)?.message ?? String(err));
  }
  if (!answer.ok) return failAll(answer.kind === 'reauth' ? 'reauth_required' : 'failed', answer.error);
  const fetched_at = new Date(now()).toISOString();
  await Promise.all(items.map((a) => {
    const reading = answer.readings[a.network_post_id];
    if (reading === 'gone') return save(a, { status: 'gone', error: `${a.platform} no longer has this post`, next_sync_at: undefined });
    if (reading === 'not_offered') return save(a, { status: 'not_offered', metrics: emptyMetrics(), source: {}, next_sync_at: undefined });
    if (!reading) return save(a, { status: 'failed', error: `${a.platform} answered no figures for this post`, next_sync_at: next(a) });
    return save(a, { status: 'synced', ...normalise(reading), fetched_at, next_sync_at: next(a) });
  }));
  return 'read';
}
