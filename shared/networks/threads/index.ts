import type { Failure, MediaItem, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, guardedBeforeCreate, rejected } from '../http';
import { field, idString, num, str } from '../oauth-tokens';
import { graphFailure } from '../facebook/graph';
import { trimBase } from '../../domain/values';
import { THREADS_API_BASE, threadsGet, threadsPost, type ThreadsOptions } from './oauth';
import { checkThreads } from './limits';
import { containerError, threadsRefine } from './rules';
import { threadsReadBack } from './read-back';
import { account, createThreadsVerifier, type Account } from './verify-credentials';
import { threadsMetrics } from './analytics';

export { createThreadsProvider } from './oauth';

export interface ThreadsAdapterOptions extends ThreadsOptions {
  /** Wait between container status polls inside one call. Default 2000 ms. */
  pollIntervalMs?: number;
  /** Time kept before the deadline for threads_publish and the permalink read. Default 5000 ms. */
  reserveMs?: number;
  /** A container still IN_PROGRESS at the deadline: ask to be resumed after this many seconds. Default 30. */
  resumeAfterSeconds?: number;
}

/** Wait before a post refused by the publishing limit is tried again: the 24-hour window moves, so an hour. */
export const THREADS_QUOTA_RETRY_AFTER = 3600;

type Status = 'FINISHED' | 'IN_PROGRESS' | 'PUBLISHED' | Failure;

/**
 * Threads adapter (graph.threads.net, media fetched by Threads from public URLs):
 * 1. The publishing limit first: `GET /{user}/threads_publishing_limit?fields=quota_usage,config`; a profile that
 *    used its quota (250 API posts in 24 h) is refused as rate_limited before anything is created.
 * 2. Containers: `POST /{user}/threads` with media_type TEXT {text} | IMAGE {image_url, alt_text} | VIDEO {video_url,
 *    alt_text}, `reply_to_id` for per_platform `reply_to`, `topic_tag` for `topic_tag` (on the post's own container:
 *    not on carousel items, not on the first comment); 2–20 items → item containers {is_carousel_item, media_type,
 *    image_url | video_url, alt_text}, then {media_type: CAROUSEL, children, text}.
 * 3. Containers holding a video are polled (`GET /{container}?fields=status,error_message`) until FINISHED within
 *    the deadline; still IN_PROGRESS → 'processing' with resume state, ERROR → bad_media / media_unreachable.
 * 4. `POST /{user}/threads_publish {creation_id}` → media id → `GET /{id}?fields=permalink`.
 * first_comment → a reply to the published post (TEXT container with reply_to_id, then threads_publish); a failing
 * comment keeps the post.
 */
export function createThreadsAdapter(opts: ThreadsAdapterOptions = {}): NetworkAdapter {
  const api = trimBase(opts.apiBase ?? THREADS_API_BASE);
  const pollIntervalMs = opts.pollIntervalMs ?? 2000;
  const reserveMs = opts.reserveMs ?? 5000;
  const resumeAfter = opts.resumeAfterSeconds ?? 30;
  const profileUrl = (a: Account) => (a.username ? `https://www.threads.net/@${a.username}` : 'https://www.threads.net/');
  const fail = (res: Parameters<typeof graphFailure>[0], what: string, ctx: NetworkContext) => graphFailure(res, `threads ${what}`, ctx.now(), threadsRefine);

  /** The publishing limit: a Failure when the quota is used up (or the token is refused), else undefined. */
  async function quotaLeft(ctx: NetworkContext, a: Account): Promise<Failure | undefined> {
    const res = await threadsGet(ctx, api, `/${encodeURIComponent(a.userId)}/threads_publishing_limit`, a.token, { fields: 'quota_usage,config' });
    if (res.status !== 200) {
      const f = fail(res, 'publishing limit read', ctx);
      // only a lost sign-in stops here: threads_publish enforces the limit itself
      return f.kind === 'reauth' ? f : undefined;
    }
    const data = field(res.json, 'data');
    const entry = Array.isArray(data) ? data[0] : undefined;
    const used = num(field(entry, 'quota_usage'));
    const total = num(field(field(entry, 'config'), 'quota_total'));
    if (used === undefined || total === undefined || used < total) return undefined;
    const hours = Math.round((num(field(field(entry, 'config'), 'quota_duration')) ?? 86_400) / 3600);
    return {
      ok: false, kind: 'rate_limited', retry_after: THREADS_QUOTA_RETRY_AFTER,
      error: `threads: this profile has published ${used} of its ${total} API posts in the last ${hours} hours (Threads' publishing limit); nothing was sent`,
    };
  }

  async function createContainer(ctx: NetworkContext, a: Account, params: Record<string, string | undefined>, what: string): Promise<string | Failure> {
    const res = await threadsPost(ctx, api, `/${encodeURIComponent(a.userId)}/threads`, a.token, params);
    if (res.status !== 200) return fail(res, what, ctx);
    return idString(field(res.json, 'id')) ?? { ok: false, kind: 'transient', error: `threads ${what} answered without an id` };
  }

  async function status(ctx: NetworkContext, a: Account, container: string): Promise<Status> {
    const res = await threadsGet(ctx, api, `/${encodeURIComponent(container)}`, a.token, { fields: 'status,error_message' });
    if (res.status !== 200) return fail(res, 'container status', ctx);
    const s = str(field(res.json, 'status'));
    if (s === 'FINISHED' || s === 'IN_PROGRESS' || s === 'PUBLISHED') return s;
    if (s === 'EXPIRED') return rejected('threads: the container expired (not published within 24 hours)');
    return containerError(str(field(res.json, 'error_message')), 'media');
  }

  /** Polls until every container is FINISHED (true), one fails (Failure) or the deadline nears (false). */
  async function waitFinished(ctx: NetworkContext, a: Account, containers: string[]): Promise<boolean | Failure> {
    const pending = new Set(containers);
    for (let first = true; ; first = false) {
      if (!first) {
        if (ctx.now() + pollIntervalMs + reserveMs >= ctx.deadline) return false;
        await ctx.sleep(pollIntervalMs);
      }
      for (const id of [...pending]) {
        const s = await status(ctx, a, id);
        if (typeof s !== 'string') return s;
        if (s !== 'IN_PROGRESS') pending.delete(id);
      }
      if (pending.size === 0) return true;
    }
  }

  const processing = (a: Account, id: string, state: Record<string, string>): PublishOutcome =>
    ({ ok: true, status: 'processing', id, url: profileUrl(a), resume: { after_seconds: resumeAfter, state } });

  async function publishContainer(ctx: NetworkContext, a: Account, container: string): Promise<string | Failure> {
    const res = await threadsPost(ctx, api, `/${encodeURIComponent(a.userId)}/threads_publish`, a.token, { creation_id: container });
    if (res.status !== 200) return fail(res, 'publish', ctx);
    return idString(field(res.json, 'id')) ?? { ok: false, kind: 'transient', error: 'threads publish answered without a media id' };
  }

  /** Waits for the container when it holds a video, publishes it and reads its permalink. */
  async function finishContainer(ctx: NetworkContext, a: Account, container: string, poll: boolean): Promise<PublishOutcome> {
    if (poll) {
      const ready = await waitFinished(ctx, a, [container]);
      if (ready !== true) return ready === false ? processing(a, container, { step: 'container', container_id: container }) : ready;
    }
    const id = await publishContainer(ctx, a, container);
    if (typeof id !== 'string') return id;
    let url = profileUrl(a);
    try {
      const link = await threadsGet(ctx, api, `/${encodeURIComponent(id)}`, a.token, { fields: 'permalink' });
      url = (link.status === 200 ? str(field(link.json, 'permalink')) : undefined) ?? url;
    } catch {
      // published: a permalink that cannot be read leaves the profile link
    }
    return { ok: true, status: 'published', id, url };
  }

  /** Waits for the carousel items holding videos, then creates the carousel container and publishes it. */
  async function finishCarousel(ctx: NetworkContext, a: Account, content: PublishContent, children: string[], videos: string[]): Promise<PublishOutcome> {
    if (videos.length) {
      const ready = await waitFinished(ctx, a, videos);
      if (ready !== true) return ready === false ? processing(a, children[0], { step: 'children', children: children.join(','), videos: videos.join(',') }) : ready;
    }
    const parent = await createContainer(ctx, a, { media_type: 'CAROUSEL', children: children.join(','), text: content.text || undefined, reply_to_id: content.options?.reply_to, topic_tag: content.options?.topic_tag }, 'carousel container');
    if (typeof parent !== 'string') return parent;
    return finishContainer(ctx, a, parent, false);
  }

  const single = (item: MediaItem, content: PublishContent): Record<string, string | undefined> => ({
    media_type: item.kind === 'image' ? 'IMAGE' : 'VIDEO',
    ...(item.kind === 'image' ? { image_url: item.url } : { video_url: item.url }),
    text: content.text || undefined, alt_text: item.alt, reply_to_id: content.options?.reply_to, topic_tag: content.options?.topic_tag,
  });

  async function publishMedia(content: PublishContent, ctx: NetworkContext, a: Account): Promise<PublishOutcome> {
    if (content.media.length <= 1) {
      const item = content.media[0];
      const params = item ? single(item, content) : { media_type: 'TEXT', text: content.text, reply_to_id: content.options?.reply_to, topic_tag: content.options?.topic_tag };
      const container = await createContainer(ctx, a, params, item ? 'media container' : 'text container');
      if (typeof container !== 'string') return container;
      return finishContainer(ctx, a, container, item?.kind === 'video');
    }
    const children: string[] = [];
    const videos: string[] = [];
    for (const [i, item] of content.media.entries()) {
      const child = await createContainer(ctx, a, {
        is_carousel_item: 'true', media_type: item.kind === 'image' ? 'IMAGE' : 'VIDEO',
        ...(item.kind === 'image' ? { image_url: item.url } : { video_url: item.url }), alt_text: item.alt,
      }, `carousel item ${i + 1} container`);
      if (typeof child !== 'string') return child;
      children.push(child);
      if (item.kind === 'video') videos.push(child);
    }
    return finishCarousel(ctx, a, content, children, videos);
  }

  /** The first comment: a reply to the published post; a failure keeps the post. */
  async function firstComment(ctx: NetworkContext, a: Account, content: PublishContent, out: PublishOutcome): Promise<PublishOutcome> {
    if (!out.ok || out.status !== 'published' || content.first_comment === undefined) return out;
    try {
      const container = await createContainer(ctx, a, { media_type: 'TEXT', text: content.first_comment, reply_to_id: out.id }, 'first comment container');
      const id = typeof container === 'string' ? await publishContainer(ctx, a, container) : undefined;
      return typeof id === 'string' ? { ...out, comment_id: id } : out;
    } catch {
      return out;
    }
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const invalid = checkThreads(content);
    if (invalid) return invalid;
    // nothing exists on Threads yet: a timeout here is safe to retry
    const quota = await guardedBeforeCreate(() => quotaLeft(ctx, a));
    if (quota) return quota;
    return firstComment(ctx, a, content, await publishMedia(content, ctx, a));
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const list = (s: string | undefined) => (s ?? '').split(',').filter(Boolean);
    if (state.step === 'children' && state.children) return firstComment(ctx, a, content, await finishCarousel(ctx, a, content, list(state.children), list(state.videos)));
    if (state.container_id) return firstComment(ctx, a, content, await finishContainer(ctx, a, state.container_id, true));
    return rejected('threads resume state names no container');
  }

  return {
    name: 'threads',
    verify: createThreadsVerifier(opts).verify,
    check: checkThreads,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    readBack: threadsReadBack(api),
    metrics: threadsMetrics(api),
  };
}
