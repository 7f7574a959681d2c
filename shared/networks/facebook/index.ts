import type { OAuthAccount, OAuthProvider } from '../../ports/oauth';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome, VerifiedAccount } from '../../ports/networks';
import { guarded, rejected, request, type HttpResult } from '../http';
import { field, idString, str } from '../oauth-tokens';
import {
  FACEBOOK_API_BASE, FACEBOOK_AUTH_BASE, GRAPH_VERSION, dialogUrl, exchangeFacebookCode, graphFailure, graphGet, graphPost, listPages,
  type GraphError, type GraphOptions,
} from './graph';
import { trimBase } from '../../domain/values';
import { checkFacebook, FACEBOOK_MAX_MEDIA, FACEBOOK_MAX_TEXT } from './limits';
import { facebookReadBack } from './read-back';
import { createFacebookManagement } from './manage';
import { facebookMetrics } from './analytics';

export { FACEBOOK_MAX_MEDIA, FACEBOOK_MAX_TEXT };

export { FACEBOOK_API_BASE, FACEBOOK_AUTH_BASE, GRAPH_VERSION };

export const FACEBOOK_SCOPES = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video', 'pages_manage_engagement', 'read_insights'] as const;

export interface FacebookOptions extends GraphOptions {
  /**
   * Origin for video uploads (`POST /<version>/<page>/videos`). Defaults to apiBase: Meta deprecated the
   * graph-video.facebook.com host and now documents graph.facebook.com for uploads.
   */
  videoBase?: string;
}

/** Tasks that allow posting as the page; a page listed without any of them is not offered. */
const POSTING_TASKS = new Set(['CREATE_CONTENT', 'MANAGE']);

/**
 * Facebook Login for Pages (no PKCE, no refresh): dialog `https://www.facebook.com/<v>/dialog/oauth` with
 * `pages_show_list, pages_read_engagement, pages_manage_posts, publish_video, pages_manage_engagement` (comments); code → short-lived → long-lived user
 * token (graph.ts). accounts(): `GET /me/accounts?fields=id,name,access_token,tasks` → one account per Page the user
 * can post to, credentials {page_id, page_name, page_access_token}; the user picks one. Page tokens from a
 * long-lived user token do not expire, so `refresh` is absent.
 */
export function createFacebookProvider(opts: FacebookOptions = {}): OAuthProvider {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  const authBase = trimBase(opts.authBase ?? FACEBOOK_AUTH_BASE);
  return {
    name: 'facebook',
    scopes: FACEBOOK_SCOPES,
    pkce: false,
    authorizeUrl: ({ app, state }) => dialogUrl(authBase, app, state, FACEBOOK_SCOPES),
    exchangeCode: ({ app, code }, ctx) => guarded(() => exchangeFacebookCode(ctx, apiBase, app, code, 'facebook')),
    accounts: (tokens, ctx) => guarded(async (): Promise<OAuthAccount[] | Failure> => {
      const pages = await listPages(ctx, apiBase, tokens.access_token, 'id,name,access_token,tasks', 'facebook page list');
      if (!Array.isArray(pages)) return pages;
      const accounts: OAuthAccount[] = [];
      for (const page of pages) {
        const id = idString(field(page, 'id'));
        const token = str(field(page, 'access_token'));
        const tasks = field(page, 'tasks');
        if (!id || !token) continue;
        if (Array.isArray(tasks) && !tasks.some((t) => typeof t === 'string' && POSTING_TASKS.has(t))) continue;
        const name = str(field(page, 'name')) ?? id;
        accounts.push({ id, handle: name, credentials: { page_id: id, page_name: name, page_access_token: token } });
      }
      return accounts;
    }),
  };
}

interface Page { id: string; token: string }

function page(credentials: Record<string, string>): Page | Failure {
  const id = (credentials.page_id ?? '').trim();
  const token = (credentials.page_access_token ?? '').trim();
  if (!id || !token) return { ok: false, kind: 'reauth', error: 'facebook needs a page_id and its page_access_token: connect Facebook again and pick a Page' };
  return { id, token };
}

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


  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const p = page(ctx.credentials);
    if ('ok' in p) return p;
    const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(p.id)}`, p.token, { fields: 'id,name' });
    if (res.status !== 200) return graphFailure(res, 'facebook page check', ctx.now());
    const name = str(field(res.json, 'name')) ?? p.id;
    return { ok: true, handle: name, credentials: { ...ctx.credentials, page_id: p.id, page_name: name, page_access_token: p.token } };
  }

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
    verify: (ctx) => guarded(() => verify(ctx)),
    check: checkFacebook,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    readBack: facebookReadBack(apiBase),
    metrics: facebookMetrics(apiBase),
    ...createFacebookManagement(apiBase),
  };
}
