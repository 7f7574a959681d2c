import type { PlatformName } from '../domain/platforms';
import { badMedia, graphemeLength } from './failures';
import type { Failure, MediaItem } from '../ports/networks';

/**
 * Media fitness per network, the part known before any download: alt-text limits, accepted types and
 * sizes. Checked at request time (alt, and type/size from the media check's headers) so a post fails early with
 * bad_media and a fix; the downloaded file itself (type, size, video duration and frame size from its container
 * headers) is checked by the adapters right before upload (media-fit.ts). Sources for each number: docs/networks.md
 * ("Media fitness").
 */

interface VideoRules {
  types: string[];
  max_bytes: number;
  min_s?: number;
  max_s?: number;
  min_side?: number;
  max_width?: number;
  max_height?: number;
}

/** A network's media rules (its descriptor's `media`, defined in its limits.ts). */
export interface MediaRules {
  image?: { types: string[]; max_bytes: number };
  video?: VideoRules;
  /** Alt-text limit, how the network counts it, and the kinds of media whose alt text is sent. */
  alt?: { max: number; unit: 'graphemes' | 'characters'; field: string; kinds: Array<'image' | 'video'> };
}

export const MB = 1_000_000;
export const MiB = 1_048_576;
export const WEB_IMAGES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

const describeBytes = (n: number) => (n >= MB ? `${n} bytes (${(n / MB).toFixed(1)} MB)` : `${n} bytes`);
export const nth = (i: number) => `media ${i + 1}`;
export const mediaType = (ct: string | undefined) => (ct ?? '').split(';')[0].trim().toLowerCase();

/** Alt texts over the network's limit → bad_media naming the item, the limit and the length (only where the alt is sent). */
export function checkAlt(platform: PlatformName, rules: MediaRules | undefined, media: MediaItem[]): Failure | undefined {
  const rule = rules?.alt;
  if (!rule) return undefined;
  for (const [i, m] of media.entries()) {
    if (m.alt === undefined || !rule.kinds.includes(m.kind)) continue;
    const n = rule.unit === 'graphemes' ? graphemeLength(m.alt) : [...m.alt].length;
    if (n > rule.max) {
      return badMedia(`${platform} takes alt text (${rule.field}) up to ${rule.max} characters; ${nth(i)} has ${n}`,
        `The alt text of ${nth(i)} is longer than ${platform} allows (${rule.max} characters); nothing was sent.`,
        `Shorten media[${i}].alt to ${rule.max} characters or fewer, or send a shorter per_platform.${platform}.media alt for ${platform}.`);
    }
  }
  return undefined;
}

export function typeAndSize(platform: PlatformName, rules: MediaRules | undefined, kind: 'image' | 'video', contentType: string, bytes: number | undefined, i: number): Failure | undefined {
  const rule = rules?.[kind];
  if (!rule) return undefined;
  // only a recognised media type is judged; an opaque one (octet-stream) is left to the network
  if (/^(image|video)\//.test(contentType) && !rule.types.includes(contentType)) {
    return badMedia(`${platform} does not take ${contentType} ${kind}s (${nth(i)}); it takes ${rule.types.join(', ')}`,
      `${nth(i)} is a ${contentType} file, a type ${platform} does not accept for ${kind}s; nothing was sent.`,
      `Convert ${nth(i)} to ${rule.types[0]}${rule.types.length > 1 ? ` (or ${rule.types.slice(1).join(', ')})` : ''} and send it again.`);
  }
  if (bytes !== undefined && bytes > rule.max_bytes) {
    return badMedia(`${platform} takes ${kind}s up to ${describeBytes(rule.max_bytes)}; ${nth(i)} has ${describeBytes(bytes)}`,
      `${nth(i)} is larger than ${platform} accepts for ${kind}s (${describeBytes(rule.max_bytes)}); nothing was sent.`,
      `Compress or shorten ${nth(i)} below ${describeBytes(rule.max_bytes)} and send it again.`);
  }
  return undefined;
}

/** Type and size as the media check learned them from the link's headers (request time). */
export function checkProbed(platform: PlatformName, rules: MediaRules | undefined, media: MediaItem[]): Failure | undefined {
  for (const [i, m] of media.entries()) {
    const f = typeAndSize(platform, rules, m.kind, mediaType(m.content_type), m.bytes, i);
    if (f) return f;
  }
  return undefined;
}

