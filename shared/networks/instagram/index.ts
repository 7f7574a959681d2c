import type { Failure, MediaItem, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, rejected } from '../http';
import { field, idString, num, str } from '../oauth-tokens';
import { FACEBOOK_API_BASE, graphFailure, graphGet, graphPost } from '../facebook/graph';
import { checkInstagram, instagramRefine, mediaSubcodeFailure } from './rules';
import { trimBase } from '../../domain/values';
import { instagramReadBack } from './read-back';
import { type InstagramOptions } from './oauth';
import { account, createInstagramVerifier, type Account } from './verify-credentials';

export { createInstagramProvider, type InstagramOptions } from './oauth';
import { instagramMetrics } from './analytics';

type Status = 'FINISHED' | 'IN_PROGRESS' | 'PUBLISHED' | Failure;

/**
 * Instagram adapter (content publishing through Graph; media must be public URLs, Instagram fetches them).
 * One image → container {image_url, caption, alt_text?}; one video → {media_type: REELS, video_url, caption}; 2–10 items → a
 * carousel: item containers {is_carousel_item, image_url, alt_text? | media_type VIDEO + video_url}, then {media_type: CAROUSEL,
 * children, caption}. Containers are polled (`GET /{id}?fields=status_code,status`) until FINISHED within the
 * deadline; still IN_PROGRESS → 'processing' with resume state {step: children|container, ...}, and resume() picks
 * up there. FINISHED → `POST /{ig-user-id}/media_publish {creation_id}` → media id → `GET /{id}?fields=permalink`.
 * ERROR / EXPIRED → rejected (bad_media, media_unreachable for download failures).
 * story → one container {media_type: STORIES, image_url | video_url} (no caption), the same status / publish steps.
 * first_comment → `POST /{media-id}/comments {message}` once the media is published (in publish or in resume); a
 * failing comment keeps the post.
 */
export function createInstagramAdapter(opts: InstagramOptions = {}): NetworkAdapter {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  const pollIntervalMs = opts.pollIntervalMs ?? 2000;
  const reserveMs = opts.reserveMs ?? 5000;
  const resumeAfter = opts.resumeAfterSeconds ?? 20;
  const profileUrl = (a: Account) => (a.username ? `https://www.instagram.com/${a.username}/` : 'https://www.instagram.com/');


  async function createContainer(ctx: NetworkContext, a: Account, params: Record<string, string | undefined>, what: string): Promise<string | Failure> {
    const res = await graphPost(ctx, apiBase, `/${encodeURIComponent(a.igUserId)}/media`, a.token, params);
    if (res.status !== 200) return graphFailure(res, `instagram ${what}`, ctx.now(), instagramRefine);
    return idString(field(res.json, 'id')) ?? { ok: false, kind: 'transient', error: `instagram ${what} answered without an id` };
  }

  async function status(ctx: NetworkContext, a: Account, container: string): Promise<Status> {
    const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(container)}`, a.token, { fields: 'status_code,status' });
    if (res.status !== 200) return graphFailure(res, 'instagram container status', ctx.now(), instagramRefine);
    const code = str(field(res.json, 'status_code'));
    if (code === 'FINISHED' || code === 'PUBLISHED' || code === 'IN_PROGRESS') return code;
    const text = str(field(res.json, 'status')) ?? code ?? 'unknown status';
    const message = `instagram could not process the media (${code ?? '?'}): ${text.slice(0, 300)}`;
    if (code === 'EXPIRED') return rejected(`${message}; the container expired before it was published`);
    const subcode = num(/\b(2207\d{3})\b/.exec(text)?.[1]);
    return mediaSubcodeFailure(subcode, message) ?? rejected(message, 'bad_media');
  }

  /**
   * Polls until every container is FINISHED (true; 'published' when a lone container was already published by an
   * earlier attempt whose answer was lost), one fails (Failure) or the deadline nears (false).
   */
  async function waitFinished(ctx: NetworkContext, a: Account, containers: string[]): Promise<boolean | 'published' | Failure> {
    const pending = new Set(containers);
    let published = false;
    for (let first = true; ; first = false) {
      if (!first) {
        if (ctx.now() + pollIntervalMs + reserveMs >= ctx.deadline) return false;
        await ctx.sleep(pollIntervalMs);
      }
      for (const id of [...pending]) {
        const s = await status(ctx, a, id);
        if (typeof s !== 'string') return s;
        if (s !== 'IN_PROGRESS') pending.delete(id);
        if (s === 'PUBLISHED') published = true;
      }
      if (pending.size === 0) return published && containers.length === 1 ? 'published' : true;
    }
  }

  const processing = (a: Account, id: string, state: Record<string, string>): PublishOutcome =>
    ({ ok: true, status: 'processing', id, url: profileUrl(a), resume: { after_seconds: resumeAfter, state } });

  /** Waits for the container, then publishes it and reads its permalink. */
  async function finishContainer(ctx: NetworkContext, a: Account, container: string): Promise<PublishOutcome> {
    const ready = await waitFinished(ctx, a, [container]);
    if (ready === 'published') return { ok: true, status: 'published', id: container, url: profileUrl(a) };
    if (ready !== true) return ready === false ? processing(a, container, { step: 'container', container_id: container }) : ready;
    const res = await graphPost(ctx, apiBase, `/${encodeURIComponent(a.igUserId)}/media_publish`, a.token, { creation_id: container });
    if (res.status !== 200) return graphFailure(res, 'instagram publish', ctx.now(), instagramRefine);
    const id = idString(field(res.json, 'id'));
    if (!id) return { ok: false, kind: 'transient', error: 'instagram publish answered without a media id' };
    let url = profileUrl(a);
    try {
      const link = await graphGet(ctx, apiBase, `/${encodeURIComponent(id)}`, a.token, { fields: 'permalink' });
      url = (link.status === 200 ? str(field(link.json, 'permalink')) : undefined) ?? url;
    } catch {
      // published: a permalink that cannot be read leaves the profile link
    }
    return { ok: true, status: 'published', id, url };
  }

  /** Waits for the carousel items, then creates the carousel container and finishes it. */
  async function finishCarousel(ctx: NetworkContext, a: Account, content: PublishContent, children: string[]): Promise<PublishOutcome> {
    const ready = await waitFinished(ctx, a, children);
    if (ready !== true && ready !== 'published') return ready === false ? processing(a, children[0], { step: 'children', children: children.join(',') }) : ready;
    const parent = await createContainer(ctx, a, { media_type: 'CAROUSEL', children: children.join(','), caption: content.text || undefined }, 'carousel container');
    if (typeof parent !== 'string') return parent;
    return finishContainer(ctx, a, parent);
  }

  const itemParams = (item: MediaItem, caption: string | undefined): Record<string, string | undefined> =>
    item.kind === 'image' ? { image_url: item.url, caption, alt_text: item.alt } : { media_type: 'REELS', video_url: item.url, caption };

  /** A Story container: media_type STORIES with the image or video (Stories show no caption). */
  const storyParams = (item: MediaItem): Record<string, string | undefined> =>
    item.kind === 'image' ? { media_type: 'STORIES', image_url: item.url } : { media_type: 'STORIES', video_url: item.url };

  /** The first comment under the published media (`POST /{media-id}/comments {message}`); a failure keeps the post. */
  async function firstComment(ctx: NetworkContext, a: Account, content: PublishContent, out: PublishOutcome): Promise<PublishOutcome> {
    if (!out.ok || out.status !== 'published' || content.first_comment === undefined) return out;
    try {
      const res = await graphPost(ctx, apiBase, `/${encodeURIComponent(out.id)}/comments`, a.token, { message: content.first_comment });
      const id = res.status === 200 ? idString(field(res.json, 'id')) : undefined;
      return id ? { ...out, comment_id: id } : out;
    } catch {
      return out;
    }
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const invalid = checkInstagram(content);
    if (invalid) return invalid;
    return firstComment(ctx, a, content, await publishMedia(content, ctx, a));
  }

  async function publishMedia(content: PublishContent, ctx: NetworkContext, a: Account): Promise<PublishOutcome> {
    if (content.options?.story) {
      if (content.media.length !== 1) return rejected('an instagram story carries exactly one image or video', 'bad_media');
      const container = await createContainer(ctx, a, storyParams(content.media[0]), 'story container');
      if (typeof container !== 'string') return container;
      return finishContainer(ctx, a, container);
    }
    if (content.media.length === 1) {
      const container = await createContainer(ctx, a, itemParams(content.media[0], content.text || undefined), 'media container');
      if (typeof container !== 'string') return container;
      return finishContainer(ctx, a, container);
    }
    const children: string[] = [];
    for (const [i, item] of content.media.entries()) {
      const params = item.kind === 'image'
        ? { is_carousel_item: 'true', image_url: item.url, alt_text: item.alt }
        : { is_carousel_item: 'true', media_type: 'VIDEO', video_url: item.url };
      const child = await createContainer(ctx, a, params, `carousel item ${i + 1} container`);
      if (typeof child !== 'string') return child;
      children.push(child);
    }
    return finishCarousel(ctx, a, content, children);
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    if (state.step === 'children' && state.children) return firstComment(ctx, a, content, await finishCarousel(ctx, a, content, state.children.split(',').filter(Boolean)));
    if (state.container_id) return firstComment(ctx, a, content, await finishContainer(ctx, a, state.container_id));
    return rejected('instagram resume state names no container');
  }

  return {
    name: 'instagram',
    verify: createInstagramVerifier(opts).verify,
    check: checkInstagram,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    readBack: instagramReadBack(apiBase),
    metrics: instagramMetrics(apiBase),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
  };
}
