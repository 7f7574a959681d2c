import { classifyStatus, guarded, jsonInit, rejected, request, retryAfterSeconds, type HttpResult } from '../http';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, Published, VerifiedAccount } from '../../ports/networks';
import { articleTitle } from '../article-title';
import { createWordpressManagement } from './manage';
import { checkWordpress, htmlParagraphs, normaliseStatus, postBody, WORDPRESS_MAX_BODY_BYTES, type WordpressStatus } from './limits';
import { wordpressReadBack } from './read-back';

export { htmlParagraphs, WORDPRESS_MAX_BODY_BYTES, type WordpressStatus };

/**
 * WordPress (self-hosted, REST API v2, Application Passwords).
 *
 * Credentials: site_url (https://example.com; normalised: trimmed, no trailing slash or /wp-json, https:// added when
 * no scheme), username, app_password (sent as `Authorization: Basic base64(username:app_password)`), optional
 * default_status 'publish' (default) | 'draft'.
 *
 * Endpoints: GET <site>/wp-json/wp/v2/users/me?context=edit (verify); POST <site>/wp-json/wp/v2/media (raw bytes with
 * Content-Type and Content-Disposition, for the featured image); POST <site>/wp-json/wp/v2/posts
 * {title, content, status, featured_media?} → {id, link}.
 *
 * Content: content.title is the post title; when absent, the first line of the text (leading markdown `#` removed,
 * at most 100 characters) is used. The whole text becomes the body as HTML-escaped paragraphs (blank line → new <p>,
 * single newline → <br>). One image becomes the featured image; video is refused (bad_media).
 * A draft (default_status 'draft') is still returned as ok/status 'published' with the draft's link.
 *
 * Failures, from WordPress's `{code, message, data:{status}}` errors: 401/403 (rest_not_logged_in,
 * incorrect_password, invalid_username, rest_cannot_create …) → reauth; 413 or rest_upload_* on the media call →
 * bad_media; 429 → rate_limited (Retry-After, else 60 s); 5xx → transient; 3xx (site moved) and other 4xx →
 * rejected; a non-JSON answer where JSON was due → rejected (REST API blocked or wrong site_url).
 */
export function createWordpressAdapter(): NetworkAdapter {
  return {
    name: 'wordpress',
    verify: (ctx) => guarded(() => verify(ctx)),
    check: checkWordpress,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    ...createWordpressManagement({ site: readCredentials, failure: wpFailure }),
    readBack: wordpressReadBack,
  };
}

interface Site { base: string; host: string; auth: string; status: WordpressStatus }

function readCredentials(credentials: Record<string, string>): Site | Failure {
  const raw = (credentials.site_url ?? '').trim();
  const username = (credentials.username ?? '').trim();
  const password = (credentials.app_password ?? '').trim();
  if (!raw) return rejected('site_url is missing');
  if (!username) return rejected('username is missing');
  if (!password) return rejected('app_password is missing');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return rejected('site_url is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return rejected('site_url must be an http(s) URL');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/wp-json$/i, '');
  const status = normaliseStatus(credentials.default_status);
  if (!status) return rejected("default_status must be 'publish' or 'draft'");
  return {
    base: `${url.origin}${path}`,
    host: url.host,
    auth: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
    status,
  };
}

async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
  const site = readCredentials(ctx.credentials);
  if ('ok' in site) return site;
  const res = await request(ctx, `${site.base}/wp-json/wp/v2/users/me?context=edit`, {
    method: 'GET',
    headers: { authorization: site.auth, accept: 'application/json' },
  });
  if (res.status !== 200) return wpFailure(res, 'checking the account');
  const me = res.json as { id?: unknown; name?: unknown; slug?: unknown } | undefined;
  if (!me || typeof me !== 'object' || me.id === undefined) {
    return rejected(`${site.host} did not answer with a WordPress user: is site_url the WordPress site and its REST API enabled?`);
  }
  const slug = typeof me.slug === 'string' && me.slug ? me.slug : String(me.name ?? me.id);
  const credentials: Record<string, string> = {
    ...ctx.credentials,
    site_url: site.base,
    username: ctx.credentials.username.trim(),
    app_password: ctx.credentials.app_password.trim(),
  };
  if (ctx.credentials.default_status !== undefined) credentials.default_status = site.status;
  return { ok: true, handle: `${slug}@${site.host}`, credentials };
}

async function publish(content: PublishContent, ctx: NetworkContext): Promise<Published | Failure> {
  const site = readCredentials(ctx.credentials);
  if ('ok' in site) return site;
  const problem = checkWordpress(content, ctx.credentials);
  if (problem) return problem;
  const title = articleTitle(content);

  let featured: number | undefined;
  const image = content.media[0];
  if (image) {
    const media = await ctx.fetchMedia(image.url);
    const res = await request(ctx, `${site.base}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers: {
        authorization: site.auth,
        accept: 'application/json',
        'content-type': image.content_type ?? media.content_type,
        'content-disposition': `attachment; filename="${safeFilename(media.filename, media.content_type)}"`,
      },
      body: new Uint8Array(media.bytes),
    });
    if (res.status !== 200 && res.status !== 201) return wpFailure(res, 'uploading the featured image', true);
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'number') return rejected(`${site.host} did not return a media id for the featured image`, 'bad_media');
    if (image.alt) {
      const meta = await request(ctx, `${site.base}/wp-json/wp/v2/media/${id}`, jsonInit('POST', { alt_text: image.alt }, { authorization: site.auth }));
      if (meta.status !== 200 && meta.status !== 201) return wpFailure(meta, 'setting the featured image\'s alt text', true);
    }
    featured = id;
  }

  const res = await request(ctx, `${site.base}/wp-json/wp/v2/posts`,
    jsonInit('POST', postBody(content, title, site.status, featured), { authorization: site.auth }));
  if (res.status !== 200 && res.status !== 201) return wpFailure(res, 'creating the post');
  const post = res.json as { id?: unknown; link?: unknown } | undefined;
  if (!post || (typeof post.id !== 'number' && typeof post.id !== 'string') || typeof post.link !== 'string') {
    return { ok: false, kind: 'transient', error: `${site.host} answered ${res.status} without a post id and link` };
  }
  return { ok: true, status: 'published', id: String(post.id), url: post.link };
}


const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

function safeFilename(name: string, contentType: string): string {
  const base = name.split(/[?#]/)[0].replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._]+/, '').slice(0, 100);
  if (base && /\.[A-Za-z0-9]+$/.test(base)) return base;
  const ext = EXTENSIONS[contentType.split(';')[0].trim().toLowerCase()] ?? 'jpg';
  return `${base || 'image'}.${ext}`;
}

/** Sorts a WordPress error answer ({code, message, data:{status}}) into a Failure. */
function wpFailure(res: HttpResult, doing: string, media = false): Failure {
  const body = res.json as { code?: unknown; message?: unknown } | undefined;
  const code = typeof body?.code === 'string' ? body.code : undefined;
  const text = typeof body?.message === 'string' ? stripTags(body.message) : undefined;
  const detail = code ? `${code}${text ? `: ${text}` : ''}` : `HTTP ${res.status}`;
  const message = `WordPress refused ${doing} (${detail})`;
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.get('location');
    return rejected(`WordPress redirected ${doing}${to ? ` to ${to}` : ''}: set site_url to the address the site answers on`);
  }
  if (res.status === 429) return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, res.at) ?? 60, error: message };
  if (res.status === 401 || res.status === 403) {
    const hint = code === 'rest_cannot_create' || code === 'rest_cannot_publish' || code === 'rest_cannot_create_post'
      ? ': the user needs the Author role or higher'
      : code ? ': check username and app_password' : ': check username and app_password (some hosts strip the Authorization header)';
    return { ok: false, kind: 'reauth', error: `${message}${hint}` };
  }
  if (media && (res.status === 413 || code?.startsWith('rest_upload_'))) return rejected(message, 'bad_media');
  if (res.status >= 200 && res.status < 300 && body === undefined) {
    return rejected(`WordPress answered ${doing} with a non-JSON page: is the REST API enabled at site_url?`);
  }
  if (res.status === 404 && (code === 'rest_no_route' || code === undefined)) {
    return rejected(`WordPress REST API not found at site_url while ${doing} (${detail})`);
  }
  return classifyStatus(res, message);
}

function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, '').slice(0, 300);
}
