import type { Deps } from '../deps';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import type { ApprovalRecord } from '../../ports/approvals';
import { NotFoundError, BadRequestError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { isPlatformName } from '../../domain/platforms';
import { failed, statusOf } from '../network-results';

const resultOf = (n: NetworkRecord) => n.result ?? { platform: n.platform, ok: false, status: statusOf(n.state) };

function view(post: PostRecord, networks: NetworkRecord[]) {
  return {
    id: post.id, brand_id: post.brand_id, source: post.source, ...(post.schedule_id ? { schedule_id: post.schedule_id } : {}),
    idempotency_key: post.idempotency_key, platforms: post.platforms, created_at: post.created_at,
    text: post.payload.text ?? null, title: post.payload.title ?? null, media: post.payload.media,
    results: networks.map((n) => ({ ...resultOf(n), status: n.result?.status ?? statusOf(n.state) })),
  };
}

/** An approval whose post was never created: pending, rejected, expired, or approved but refused when published. */
export const neverPosted = (a: ApprovalRecord) => a.status !== 'approved' || !!a.publish_error;

/** The post status of a held post: pending_approval, rejected, expired, or failed (approved, then refused). */
const heldStatus = (a: ApprovalRecord) => (a.status === 'pending' ? 'pending_approval' : a.status === 'approved' ? 'failed' : a.status);

/** A post held for approval (never sent), seen like any post: its status, its approval, one result per network. */
export function heldView(a: ApprovalRecord) {
  const status = heldStatus(a);
  const resultOf = (platform: ApprovalRecord['platforms'][number]) => {
    if (!a.platforms.includes(platform)) return failed(platform, 'platform_not_allowed', `The guardrails of the sender do not allow ${platform}`);
    if (a.status === 'pending') return { platform, ok: true, status: 'pending_approval' as const };
    if (a.publish_error) return failed(platform, a.publish_error.code, a.publish_error.error);
    return failed(platform, `approval_${a.status}`, `The post was ${a.status} and not sent${a.note ? `: ${a.note}` : ''}`);
  };
  return {
    id: a.post_id, brand_id: a.brand_id, source: a.source, ...(a.schedule_id ? { schedule_id: a.schedule_id } : {}),
    idempotency_key: a.post.idempotency_key ?? null, platforms: a.post.platforms, created_at: a.created_at,
    text: a.post.payload.text ?? null, title: a.post.payload.title ?? null, media: a.post.payload.media,
    status,
    approval: {
      id: a.id, status: a.status, reason: a.reason, expires_at: new Date(a.expires_at * 1000).toISOString(),
      decided_at: a.decided_at ?? null, decided_by: a.decided_by ?? null, note: a.note ?? null,
    },
    results: a.post.platforms.map(resultOf),
  };
}

async function owned(deps: Pick<Deps, 'posts'>, accountId: string, postId: string) {
  const found = isId('pst', postId) ? await deps.posts.get(postId) : undefined;
  if (!found || found.post.account_id !== accountId) throw new NotFoundError('No such post');
  return found;
}

/**
 * GET /api/posts/{id}: the post, each network's result, and the events recorded for it. A post held for approval
 * (pending, rejected, expired) is found through its approval: status pending_approval / rejected / expired.
 */
export async function getPost(deps: Pick<Deps, 'posts' | 'events' | 'approvals'>, accountId: string, postId: string) {
  const found = isId('pst', postId) ? await deps.posts.get(postId) : undefined;
  if (found && found.post.account_id === accountId) {
    const events = await deps.events.listForPost(found.post.id);
    return { ...view(found.post, found.networks), events: events.map(({ account_id: _a, ...e }) => e) };
  }
  const held = !found && isId('pst', postId) ? await deps.approvals.findByPost(accountId, postId) : undefined;
  if (!held || !neverPosted(held)) throw new NotFoundError('No such post');
  const events = await deps.events.listForPost(postId);
  return { ...heldView(held), events: events.map(({ account_id: _a, ...e }) => e) };
}

/**
 * GET /api/posts: newest first, paginated with `before` (a post id). Posts held for approval that were never sent
 * (pending, rejected, expired) are listed among them by the time they were made.
 */
export async function listPosts(deps: Pick<Deps, 'posts' | 'approvals'>, accountId: string, limit: number, before?: string) {
  const [posts, approvals] = await Promise.all([
    deps.posts.list(accountId, limit, before),
    deps.approvals.list(accountId, { limit, before: before ? `apr_${before.slice(4)}` : undefined }),
  ]);
  const networks = await deps.posts.networksOf(posts);
  const time = (id: string) => id.slice(id.indexOf('_') + 1);
  // approvals past the last one read may be older than some posts read: the page stops where the approvals read end
  const floor = approvals.length === limit ? time(approvals[approvals.length - 1].id) : undefined;
  const items = [
    ...posts.map((p) => view(p, networks.get(p.id) ?? [])),
    ...approvals.filter(neverPosted).map(heldView),
  ].filter((i) => floor === undefined || time(i.id) >= floor).sort((a, b) => time(b.id).localeCompare(time(a.id))).slice(0, limit);
  const next = items.length === limit || (floor !== undefined && items.length > 0) ? items[items.length - 1].id : floor !== undefined ? `pst_${floor}` : null;
  return { posts: items, next_before: next };
}

/** GET /api/post/status: by our post id (pst_…) or the network's own post id. */
export async function postStatus(deps: Pick<Deps, 'posts'>, accountId: string, platform: string, id: string) {
  if (!isPlatformName(platform)) throw new BadRequestError(`Unknown network: ${platform}`, { details: { platforms: [platform] } });
  const postId = isId('pst', id) ? id : await deps.posts.findByNetworkId(accountId, platform, id);
  if (!postId) throw new NotFoundError('No post with that id on that network');
  const { networks } = await owned(deps, accountId, postId);
  const n = networks.find((x) => x.platform === platform);
  if (!n) throw new NotFoundError(`That post was not sent to ${platform}`);
  return { platform, id, post_id: postId, status: statusOf(n.state, n.result), ...(n.result?.url ? { url: n.result.url } : {}), ...(n.result?.code ? { code: n.result.code } : {}), ...(n.result?.held ? { held: true } : {}) };
}
