import type { Failure, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, rejected, request, type HttpResult } from '../http';
import { field, idString, str } from '../oauth-tokens';
import { FACEBOOK_API_BASE, GRAPH_VERSION, graphFailure, graphGet, graphPost, type GraphError } from './graph';
import { trimBase } from '../../domain/values';
import { checkFacebook } from './limits';
import { facebookReadBack } from './read-back';
import { createFacebookManagement } from './manage';
import { type FacebookOptions } from './oauth';
import { createFacebookVerifier, page, type Page } from './verify-credentials';

import { facebookMetrics } from './analytics';

export { createFacebookProvider, type FacebookOptions } from './oauth';
export { FACEBOOK_API_BASE, GRAPH_VERSION };

/** Photo and video steps: Facebook's own "bad photo" answers → bad_media, fetch failures → media_unreachable. */
function mediaRefine(e: GraphError, message: string): Failure | undefined {
  if (e.subcode === 1366046 || e.code === 324 || e.code === 352 || e.code === 6000) return rejected(message, 'bad_media');
  if (/(could not|couldn't|failed to|unable to) (be )?(fetch|download|retrieve)|url.*(not reachable|unreachable|could not be)/i.test(e.message)) {
    return rejected(message, 'media_unreachable');
  }
  return undefined;
}

/**
 * Facebook Pages adapter (Graph API, pinned version in graph.ts). ctx.credentials: `access_token` (the user token,
 * not used for posting) plus `page_id` and `page_access_token` from accounts().
 * Text → `POST /{page}/feed {message}`; one photo → `POST /{page}/photos {url, caption}` (Facebook fetches the URL);
 * one video → `POST {videoBase}/{page}/videos {file_url, description, title?}` (fetched and processed by Facebook,
 * the post appears when ready); `reel` → the Reels flow: `POST /{page}/video_reels {upload_phase: start}` → {video_id,
 * upload_url}, `POST <upload_url>` with headers `Authorization: OAuth <page token>` and `file_url: <video>` (Facebook
 * pulls it), `POST /{page}/video_reels {upload_phase: finish, video_id, video_state: PUBLISHED, description}`; the
 * link is https://www.facebook.com/reel/<video_id>. first_comment → `POST /{post}/comments {message}` under the post
 * (a failing comment keeps the post). The public link: `GET /{id}?fields=permalink_url`, else https://www.facebook.com/<id>.
 */
export function createFacebookAdapter(opts: FacebookOptions = {}): NetworkAdapter {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  const videoBase = trimBase(opts.videoBase ?? apiBase);


  /** Best-effort public link of a post or video; relative permalinks (videos) are made absolute. */
  async function permalink(ctx: NetworkContext, p: Page, id: string): Promise<string> {
    const fallback = `https://www.facebook.com/${id}`;
    try {
      const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(id)}`, p.token, { fields: 'permalink_url' });
      const link = res.status === 200 ? str(field(res.json, 'permalink_url')) : undefined;
      if (!link) return fallback;
      return link.startsWith('/') ? `https://www.facebook.com${link}` : link;
    } catch {
      return fallback;
    }
  }

  /** The Reels flow (start, hosted-file upload, finish); answers the reel's video id. */
  async function reel(ctx: NetworkContext, p: Page, content: PublishContent, videoUrl: string): Promise<PublishOutcome> {
    const pagePath = `/${encodeURIComponent(p.id)}/video_reels`;
    const start = await graphPost(ctx, apiBase, pagePath, p.token, { upload_phase: 'start' });
    if (start.status !== 200) return graphFailure(start, 'facebook reel start', ctx.now(), mediaRefine);
    const videoId = idString(field(start.json, 'video_id'));
    const uploadUrl = str(field(start.json, 'upload_url'));
    if (!videoId || !uploadUrl) return { ok: false, kind: 'transient', error: 'facebook reel start answered without video_id / upload_url' };
    const upload = await request(ctx, uploadUrl, { method: 'POST', headers: { authorization: `OAuth ${p.token}`, file_url: videoUrl, accept: 'application/json' } });
    if (upload.status !== 200) return graphFailure(upload, 'facebook reel upload', ctx.now(), mediaRefine);
    const finish = await graphPost(ctx, apiBase, pagePath, p.token, {
      upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: content.text || undefined,
    });
    if (finish.status !== 200) return graphFailure(finish, 'facebook reel publish', ctx.now(), mediaRefine);
    if (field(finish.json, 'success') === false) return rejected('facebook did not publish the reel (success: false)', 'bad_media');
    return { ok: true, status: 'published', id: videoId, url: `https://www.facebook.com/reel/${videoId}` };
  }

  /** The first comment under a published post; a failure keeps the post (it exists). */
  async function firstComment(ctx: NetworkContext, p: Page, content: PublishContent, out: PublishOutcome): Promise<PublishOutcome> {
    if (!out.ok || content.first_comment === undefined) return out;
    try {
      const res = await graphPost(ctx, apiBase, `/${encodeURIComponent(out.id)}/comments`, p.token, { message: content.first_comment });
      const id = res.status === 200 ? idString(field(res.json, 'id')) : undefined;
      return id ? { ...out, comment_id: id } : out;
    } catch {
      return out;
    }
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const p = page(ctx.credentials);
    if ('ok' in p) return p;
    const invalid = checkFacebook(content);
    if (invalid) return invalid;
    const item = content.media[0];
    if (content.options?.reel) {
      if (item?.kind !== 'video') return rejected('a facebook reel needs one video', 'bad_media');
      return firstComment(ctx, p, content, await reel(ctx, p, content, item.url));
    }
    const pagePath = `/${encodeURIComponent(p.id)}`;
    let res: HttpResult;
    let what: string;
    if (!item) {
      what = 'facebook post';
      res = await graphPost(ctx, apiBase, `${pagePath}/feed`, p.token, { message: content.text });
    } else if (item.kind === 'image') {
      what = 'facebook photo post';
      res = await graphPost(ctx, apiBase, `${pagePath}/photos`, p.token, { url: item.url, caption: content.text || undefined, published: 'true' });
    } else {
      what = 'facebook video post';
      res = await graphPost(ctx, videoBase, `${pagePath}/videos`, p.token, {
        file_url: item.url, description: content.text || undefined, title: content.title, published: 'true',
      });
    }
    if (res.status !== 200) return graphFailure(res, what, ctx.now(), item ? mediaRefine : undefined);
    const id = idString(field(res.json, 'post_id')) ?? idString(field(res.json, 'id'));
    if (!id) return { ok: false, kind: 'transient', error: `${what} answered without an id` };
    return firstComment(ctx, p, content, { ok: true, status: 'published', id, url: await permalink(ctx, p, id) });
  }

  return {
    name: 'facebook',
    verify: createFacebookVerifier(opts).verify,
    check: checkFacebook,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    readBack: facebookReadBack(apiBase),
    metrics: facebookMetrics(apiBase),
    ...createFacebookManagement(apiBase),
  };
}
