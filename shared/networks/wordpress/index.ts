import { guarded, jsonInit, rejected, request } from '../http';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, Published } from '../../ports/networks';
import { articleTitle } from '../article-title';
import { createWordpressManagement } from './manage';
import { checkWordpress, htmlParagraphs, postBody, WORDPRESS_MAX_BODY_BYTES, type WordpressStatus } from './limits';
import { wordpressReadBack } from './read-back';
import { createWordpressVerifier, readCredentials, wpFailure } from './verify-credentials';

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
    verify: createWordpressVerifier().verify,
    check: checkWordpress,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    ...createWordpressManagement({ site: readCredentials, failure: wpFailure }),
    readBack: wordpressReadBack,
  };
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
