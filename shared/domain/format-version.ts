/**
 * The format version every queue message, scheduler input and table item carries as `v`, so that a deploy while
 * work is in flight loses nothing: the code reads its own format and the one before it (for at least one release),
 * and leaves what a newer release wrote for that release rather than dropping it.
 *
 * Format 1 is today's shape. The previous format is the same shape without `v`: it reads as format 1.
 */
export const FORMAT_VERSION = 1;

/** A message or item written by a newer release (its `v` is above ours): leave it for that release, never drop it. */
export class NewerFormatError extends Error {
  override readonly name = 'NewerFormatError';
  constructor(readonly found: number) {
    super(`format version ${found} is newer than this release reads (${FORMAT_VERSION})`);
  }
}

/** True when a parsed JSON value carries a format version above ours. */
export function isNewerFormat(value: unknown): value is { v: number } {
  return typeof value === 'object' && value !== null && typeof (value as { v?: unknown }).v === 'number' && (value as { v: number }).v > FORMAT_VERSION;
}
