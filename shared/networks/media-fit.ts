import type { PlatformName } from '../domain/platforms';
import { readVideoInfo } from '../media/video-info';
import { badMedia } from './failures';
import type { Failure, FetchedMedia } from '../ports/networks';
import { mediaType, nth, typeAndSize, type MediaRules } from './media-rules';


/* The adapters' side of media fitness: what media-rules.ts checks, plus the downloaded file itself. */

/**
 * The downloaded file itself, before it is uploaded: type, size, and for a video the duration and frame size from
 * its container headers.
 */
export function checkFile(platform: PlatformName, rules: MediaRules | undefined, kind: 'image' | 'video', file: FetchedMedia, i: number): Failure | undefined {
  const f = typeAndSize(platform, rules, kind, mediaType(file.content_type), file.bytes.length, i);
  if (f || kind !== 'video') return f;
  const rule = rules?.video;
  if (!rule) return undefined;
  const info = readVideoInfo(file.bytes);
  if (!info) return undefined;
  const d = info.duration_s;
  if (d !== undefined && ((rule.min_s !== undefined && d < rule.min_s) || (rule.max_s !== undefined && d > rule.max_s))) {
    const range = rule.min_s !== undefined ? `${rule.min_s}–${rule.max_s ?? '∞'} s` : `up to ${rule.max_s} s`;
    return badMedia(`${platform} takes videos of ${range}; ${nth(i)} lasts ${d.toFixed(1)} s`,
      `${nth(i)} lasts ${d.toFixed(1)} seconds; ${platform} takes videos of ${range}. Nothing was sent.`,
      `Trim ${nth(i)} to fit ${range} (or send a per_platform.${platform}.media with a cut for ${platform}).`);
  }
  const { width: w, height: h } = info;
  if (w !== undefined && h !== undefined) {
    const small = rule.min_side !== undefined && Math.min(w, h) < rule.min_side;
    const big = (rule.max_width !== undefined && Math.max(w, h) > Math.max(rule.max_width, rule.max_height ?? 0)) ||
      (rule.max_width !== undefined && rule.max_height !== undefined && Math.min(w, h) > Math.min(rule.max_width, rule.max_height));
    if (small || big) {
      const allowed = `${rule.min_side !== undefined ? `at least ${rule.min_side} px a side` : ''}${rule.min_side !== undefined && rule.max_width !== undefined ? ', ' : ''}${rule.max_width !== undefined ? `at most ${rule.max_width}×${rule.max_height}` : ''}`;
      return badMedia(`${platform} takes videos of ${allowed}; ${nth(i)} is ${w}×${h}`,
        `${nth(i)} is ${w}×${h} pixels; ${platform} takes videos of ${allowed}. Nothing was sent.`,
        `Re-encode ${nth(i)} to a frame size of ${allowed} and send it again.`);
    }
  }
  return undefined;
}
