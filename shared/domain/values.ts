/** Small checks and clean-ups of plain values, shared by every layer. */

/** A JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A base URL (or path prefix) without its trailing slashes, ready for `${base}/path`. */
export const trimBase = (base: string): string => base.replace(/\/+$/, '');
