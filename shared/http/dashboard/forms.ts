import type { z } from 'zod';
import { BadRequestError } from '../../domain/errors';

/**
 * Reads a url-encoded form against a strict schema (an unknown field is refused). `csrf` is the session
 * middleware's business and is dropped here; a field sent twice keeps its first value unless `lists` names it.
 */
export function parseForm<S extends z.ZodType>(req: { rawBody?: string; body?: unknown }, schema: S, lists: readonly string[] = []): z.infer<S> {
  const out: Record<string, string | string[]> = {};
  const pairs = req.rawBody !== undefined ? [...new URLSearchParams(req.rawBody)] : Object.entries((req.body ?? {}) as Record<string, string>);
  for (const [k, v] of pairs) {
    if (k === 'csrf') continue;
    if (lists.includes(k)) out[k] = [...((out[k] as string[] | undefined) ?? []), v];
    else if (!(k in out)) out[k] = v;
  }
  const res = schema.safeParse(out);
  if (!res.success) {
    throw new BadRequestError('The form is invalid', { details: { issues: res.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) } });
  }
  return res.data;
}
