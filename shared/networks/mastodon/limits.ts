import { checkAlt, type MediaRules, MiB, WEB_IMAGES } from '../media-rules';
import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';
import { isRecord } from '../../domain/values';

/** What Mastodon takes, checked before sending (the API side's pre-check and the adapter share it): instance address, status length, media fit. */

export { mastodonLength as statusLength } from '../../domain/text-length';

/** Mastodon's default status limit (an instance may allow more: its own, stored at connect time, is used then). */
export const MASTODON_DEFAULT_MAX_CHARACTERS = 500;

/** Its text rule (THE length validator's unit and limits for mastodon; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'mastodon', limit: MASTODON_DEFAULT_MAX_CHARACTERS, thread: true, firstComment: true };

export const MASTODON_MAX_MEDIA = 4;

export const field = (body: unknown, key: string): unknown => (isRecord(body) ? body[key] : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** `https://host[/path]` without trailing slashes; a bare host gets https://. Undefined when not an http(s) URL. */
export function normaliseInstanceUrl(raw: string | undefined): string | undefined {
  let s = (raw ?? '').trim();
  if (!s) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `https://${s}`;
  let url: URL;
  try { url = new URL(s); } catch { return undefined; }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) return undefined;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

// Mastodon's counting (links 23, remote mentions as @user, graphemes) is THE length validator's (shared/domain).

/** The instance's limit stored at verify (credentials.max_characters), else Mastodon's default 500. */
export function maxCharacters(credentials: Record<string, string>): number {
  const n = Number(credentials.max_characters);
  return Number.isInteger(n) && n > 0 ? n : MASTODON_DEFAULT_MAX_CHARACTERS;
}

export function checkContent(content: PublishContent, credentials: Record<string, string>): Failure | undefined {
  const tooLong = lengthFailure('mastodon', TEXT_RULE, content, { instanceLimit: maxCharacters(credentials) });
  if (tooLong) return tooLong;
  if (content.media.length > MASTODON_MAX_MEDIA) {
    return rejected(`mastodon takes at most ${MASTODON_MAX_MEDIA} media per post; got ${content.media.length}`, 'bad_media');
  }
  if (content.media.length > 1 && content.media.some((m) => m.kind === 'video')) {
    return rejected('mastodon takes a video only on its own: no other image or video in the same post', 'bad_media');
  }
  return checkAlt('mastodon', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: [...WEB_IMAGES, 'image/heic', 'image/heif', 'image/avif'], max_bytes: 16 * MiB },
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], max_bytes: 99 * MiB },
  alt: { max: 1500, unit: 'characters', field: 'description', kinds: ['image', 'video'] },
};
