import type { Failure } from '../ports/networks';

/**
 * The Failure shapes the checks before sending build (no I/O): the content limits (shared/networks/<name>/limits.ts)
 * and the adapters share them. shared/networks/http.ts re-exports them for the send code.
 */
export const rejected = (error: string, code: 'rejected' | 'text_too_long' | 'bad_media' | 'media_unreachable' = 'rejected'): Failure =>
  ({ ok: false, kind: 'rejected', code, error });

/** bad_media with the plain-words what and fix of this case (they replace the generic ones of the code). */
export const badMedia = (error: string, what: string, fix: string): Failure =>
  ({ ok: false, kind: 'rejected', code: 'bad_media', error, what, fix });

/** Counts user-perceived characters (graphemes), as Bluesky and most networks do. */
export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) n++;
  return n;
}
