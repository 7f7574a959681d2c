import type { Deps } from '../deps';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import { NotFoundError, BadRequestError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { isPlatformName } from '../../domain/platforms';
import { statusOf } from './results';

const resultOf = (n: NetworkRecord) => n.result ?? { platform: n.platform, ok: false, status: statusOf(n.state) };

function view(post: PostRecord, networks: NetworkRecord[]) {
  return {
    id: post.id, brand_id: post.brand_id, source: post.source, ...(post.schedule_id ? { schedule_id: post.schedule_id } : {}),
    idempotency_key: post.idempotency_key, platforms: post.platforms, created_at: post.created_at,
    text: post.payload.text ?? null, title: post.payload.title ?? null, media: post.payload.media,
    results: networks.map((n) => ({ ...resultOf(n), status: n.result?.status ?? statusOf(n.state) })),
  };
}

async function owned(deps: Pick<Deps, 'posts'>, accountId: string, postId: string) {
  const found = isId('pst', postId) ? await deps.posts.get(postId) : undefined;
  if (!found || found.post.account_id !== accountId) throw new NotFoundError('No such post');
  return found;
}

/** GET /api/posts/{id}: the post, each network's result, and the events recorded for it. */
export async function getPost(deps: Pick<Deps, 'posts' | 'events'>, accountId: string, postId: string) {
  const { post, networks } = await owned(deps, accountId, postId);
  const events = await deps.events.listForPost(post.id);
  return { ...view(post, networks), events: events.map(({ account_id: _a, ...e }) => e) };
}

/** GET /api/posts: newest first, paginated with `before` (a post id). */
export async function listPosts(deps: Pick<Deps, 'posts'>, accountId: string, limit: number, before?: string) {
  const posts = await deps.posts.list(accountId, limit, before);
  const networks = await deps.posts.networksOf(posts);
  const items = posts.map((p) => view(p, networks.get(p.id) ?? []));
  return { posts: items, next_before: items.length === limit ? items[items.length - 1].id : null };
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
