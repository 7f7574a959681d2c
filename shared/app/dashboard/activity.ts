import type { Deps } from '../deps';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import { ulid } from '../../domain/ids';
import { csvLine } from '../../domain/csv';
import { statusOf } from '../network-results';
import { heldView, neverPosted } from '../publish/queries';
import { analyticsCell } from '../analytics/export-analytics';

/** Filters of the activity log (Posts page and its CSV export). Dates are ISO dates (YYYY-MM-DD, UTC), inclusive. */
export interface ActivityFilter {
  brand_id?: string;
  platform?: PlatformName;
  status?: string;
  source?: string;
  from?: string;
  to?: string;
}

export interface ActivityNetwork {
  platform: PlatformName;
  status: string;
  ok: boolean;
  code: string | null;
  error: string | null;
  url: string | null;
}
export interface ActivityPost {
  id: string;
  created_at: string;
  brand_id: string;
  brand: string;
  source: string;
  text: string;
  networks: ActivityNetwork[];
}

const network = (n: NetworkRecord): ActivityNetwork => {
  // a post taken back with DELETE /api/posts/{id} shows as deleted there
  const status = n.deleted_at ? 'deleted' : n.result?.status === 'failed' || !n.result ? statusOf(n.state, n.result) : n.result.status;
  return { platform: n.platform, status, ok: n.result?.ok ?? false, code: n.result?.code ?? null, error: n.result?.error ?? null, url: n.result?.url ?? null };
};

/** The first post id after a date's end (ids are ULIDs, so they sort by creation time). */
const idBefore = (isoDate: string) => `pst_${ulid(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).slice(0, 10)}${'0'.repeat(16)}`;
const startMs = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`);

function matches(f: ActivityFilter, post: PostRecord, n: ActivityNetwork) {
  return (!f.platform || n.platform === f.platform) && (!f.status || n.status === f.status) && (!f.brand_id || post.brand_id === f.brand_id) && (!f.source || post.source === f.source);
}

/**
 * The account's posts, newest first, filtered, one page of the post store at a time: each yielded batch holds only
 * that page's posts (and only their networks that match), so a caller can stream any number of posts in bounded
 * memory. Stops at the `from` date.
 */
export async function* activityPages(deps: Pick<Deps, 'posts' | 'approvals'>, accountId: string, f: ActivityFilter, opts: { pageSize?: number; before?: string } = {}): AsyncGenerator<{ posts: ActivityPost[]; last?: string }> {
  if (f.status === HELD) { yield* heldPages(deps, accountId, f, opts); return; }
  const pageSize = opts.pageSize ?? 100;
  let before = opts.before ?? (f.to ? idBefore(f.to) : undefined);
  const floor = f.from ? startMs(f.from) : undefined;
  for (;;) {
    const page = await deps.posts.list(accountId, pageSize, before);
    if (page.length === 0) return;
    const inRange = floor === undefined ? page : page.filter((p) => Date.parse(p.created_at) >= floor);
    const wanted = inRange.filter((p) => (!f.brand_id || p.brand_id === f.brand_id) && (!f.source || p.source === f.source));
    const networks = await deps.posts.networksOf(wanted);
    const posts: ActivityPost[] = [];
    for (const p of wanted) {
      const nets = (networks.get(p.id) ?? []).map(network).filter((n) => matches(f, p, n));
      if (nets.length === 0) continue;
      posts.push({ id: p.id, created_at: p.created_at, brand_id: p.brand_id, brand: p.brand_name, source: p.source, text: p.payload.text ?? '', networks: nets });
    }
    before = page[page.length - 1].id;
    yield { posts, last: before };
    if (page.length < pageSize || inRange.length < page.length) return;
  }
}

/** The status filter of posts held for approval and never sent (pending, rejected or expired). */
export const HELD = 'held';

/** activityPages for the `held` filter: the approvals whose post was never sent, newest first. */
async function* heldPages(deps: Pick<Deps, 'approvals'>, accountId: string, f: ActivityFilter, opts: { pageSize?: number; before?: string }): AsyncGenerator<{ posts: ActivityPost[]; last?: string }> {
  const pageSize = opts.pageSize ?? 100;
  const cursor = opts.before ?? (f.to ? idBefore(f.to) : undefined);
  let before = cursor ? `apr_${cursor.slice(cursor.indexOf('_') + 1)}` : undefined;
  const floor = f.from ? startMs(f.from) : undefined;
  for (;;) {
    const page = await deps.approvals.list(accountId, { limit: pageSize, before });
    if (page.length === 0) return;
    const inRange = floor === undefined ? page : page.filter((a) => Date.parse(a.created_at) >= floor);
    const posts: ActivityPost[] = [];
    for (const a of inRange) {
      if (!neverPosted(a) || (f.brand_id && a.brand_id !== f.brand_id) || (f.source && a.source !== f.source)) continue;
      const v = heldView(a);
      const nets = v.results.filter((r) => !f.platform || r.platform === f.platform)
        .map((r): ActivityNetwork => ({ platform: r.platform, status: r.ok ? v.status : (r.code === 'platform_not_allowed' ? 'failed' : v.status), ok: false, code: r.ok ? null : r.code ?? null, error: r.ok ? null : r.error ?? null, url: null }));
      if (nets.length === 0) continue;
      posts.push({ id: a.post_id, created_at: a.created_at, brand_id: a.brand_id, brand: a.brand_name, source: a.source, text: v.text ?? '', networks: nets });
    }
    before = page[page.length - 1].id;
    yield { posts, last: `pst_${before.slice(4)}` };
    if (page.length < pageSize || inRange.length < page.length) return;
  }
}

/** One page of the Posts page: up to `limit` matching posts, and the cursor of the next page. */
export async function activityPage(deps: Pick<Deps, 'posts' | 'approvals'>, accountId: string, f: ActivityFilter, limit = 50, before?: string) {
  const posts: ActivityPost[] = [];
  let next: string | null = null;
  for await (const batch of activityPages(deps, accountId, f, { pageSize: limit, before })) {
    for (const p of batch.posts) {
      if (posts.length === limit) break;
      posts.push(p);
    }
    if (posts.length === limit) { next = posts[posts.length - 1].id; break; }
  }
  return { posts, next_before: next };
}

/** `analytics`: the network's figures as JSON (status, fetched_at and the figures it offers), empty when not tracked. */
export const CSV_HEADER = ['post_id', 'created_at', 'brand_id', 'brand', 'source', 'platform', 'status', 'ok', 'code', 'error', 'url', 'text', 'analytics'] as const;

/** The filtered activity log as CSV text chunks (header, then one line per network of each post), page by page. */
export async function* activityCsv(deps: Pick<Deps, 'posts' | 'approvals' | 'analytics'>, accountId: string, f: ActivityFilter, pageSize = 100): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER);
  for await (const batch of activityPages(deps, accountId, f, { pageSize })) {
    let chunk = '';
    const published = batch.posts.flatMap((p) => p.networks.filter((n) => n.ok).map((n) => ({ post_id: p.id, platform: n.platform })));
    const figures = new Map((published.length ? await deps.analytics.forPosts(accountId, published) : []).map((a) => [`${a.post_id}#${a.platform}`, a]));
    for (const p of batch.posts) {
      for (const n of p.networks) chunk += csvLine([p.id, p.created_at, p.brand_id, p.brand, p.source, n.platform, n.status, n.ok, n.code, n.error, n.url, p.text, analyticsCell(figures.get(`${p.id}#${n.platform}`))]);
    }
    if (chunk) yield chunk;
  }
}

/** How long the export's download link works. */
export const EXPORT_LINK_SECONDS = 15 * 60;

/**
 * Export CSV: the filtered rows are streamed page by page into object storage (never all in memory), then a
 * short-lived download link is answered.
 */
export async function exportActivity(deps: Pick<Deps, 'posts' | 'approvals' | 'analytics' | 'blobs' | 'clock'>, accountId: string, f: ActivityFilter) {
  const now = deps.clock.now();
  const name = `posts-${new Date(now).toISOString().slice(0, 10)}.csv`;
  const key = `exports/${accountId}/${ulid(now)}/${name}`;
  const { bytes } = await deps.blobs.putStream(key, activityCsv(deps, accountId, f), { contentType: 'text/csv; charset=utf-8', downloadName: name });
  return { url: await deps.blobs.presignGet(key, EXPORT_LINK_SECONDS, { downloadName: name }), bytes };
}
