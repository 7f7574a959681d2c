import { platform } from '../../domain/platforms';
import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { checkAlt, type MediaRules } from '../media-rules';
import { articleTitle } from '../article-title';
import type { TextRule } from '../../domain/text-length';

/* What WordPress takes, checked before sending (the API side's pre-check and the adapter share it): the post the
 * adapter would send must fit PHP's default request size, so its body is built here. */

/** PHP's default post_max_size (8 MB): the JSON request carrying the post must fit in it. Hosts may allow more. */
export const WORDPRESS_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** wp_posts.post_title is a MySQL TEXT column: 65,535 bytes. */
export const WORDPRESS_MAX_TITLE_BYTES = 65_535;

/** Its text rule (THE length validator's unit and limits for wordpress; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf8_bytes', limit: WORDPRESS_MAX_BODY_BYTES, thread: false, firstComment: false, title: { unit: 'utf8_bytes', limit: WORDPRESS_MAX_TITLE_BYTES } };

export type WordpressStatus = 'publish' | 'draft';

export function normaliseStatus(value: string | undefined): WordpressStatus | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (!v || v === 'publish' || v === 'published') return 'publish';
  if (v === 'draft') return 'draft';
  return undefined;
}

export function checkWordpress(content: PublishContent, credentials: Record<string, string>): Failure | undefined {
  const max = platform('wordpress').max_media;
  if (content.media.length > max) return rejected(`WordPress takes at most ${max} media item (the featured image); got ${content.media.length}`, 'bad_media');
  if (content.media.some((m) => m.kind !== 'image')) return rejected('WordPress takes an image as the featured image; video is not supported', 'bad_media');
  const alt = checkAlt('wordpress', MEDIA_RULES, content.media);
  if (alt) return alt;
  const title = articleTitle(content);
  if (!title) return rejected('WordPress needs a title: give a title or a text whose first line can be used');
  const titleBytes = Buffer.byteLength(escapeHtml(title), 'utf8');
  if (titleBytes > WORDPRESS_MAX_TITLE_BYTES) {
    return rejected(`WordPress titles are limited to ${WORDPRESS_MAX_TITLE_BYTES} bytes; this one is ${titleBytes} bytes`, 'text_too_long');
  }
  const body = Buffer.byteLength(JSON.stringify(postBody(content, title, normaliseStatus(credentials.default_status) ?? 'publish')), 'utf8');
  if (body > WORDPRESS_MAX_BODY_BYTES) {
    return rejected(`WordPress (PHP default post_max_size) accepts posts up to ${WORDPRESS_MAX_BODY_BYTES} bytes; this one is ${body} bytes`, 'text_too_long');
  }
  return undefined;
}

export function postBody(content: PublishContent, title: string, status: WordpressStatus, featured?: number) {
  return {
    title: escapeHtml(title),
    content: htmlParagraphs(content.text),
    status,
    ...(featured !== undefined ? { featured_media: featured } : {}),
  };
}

/** Escapes text for an HTML text node (title and paragraphs are never inside attributes). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text → HTML-escaped paragraphs: blank lines separate <p>, single newlines become <br>. */
export function htmlParagraphs(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p)
    .map((p) => `<p>${p.split('\n').map(escapeHtml).join('<br>\n')}</p>`)
    .join('\n');
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = { alt: { max: 5000, unit: 'characters', field: 'alt_text', kinds: ['image'] } };
