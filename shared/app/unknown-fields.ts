import type { z } from 'zod';
import { BadRequestError } from '../domain/errors';

/**
 * Request objects are strict (decisions.md "Strict requests"): a field the schema does not know is refused with
 * 400 `unknown_field`, naming each field by its path and the nearest known name, so a typo such as `idempotencykey`
 * never silently turns a feature off.
 */
export interface UnknownField {
  /** Dotted path of the field, e.g. `idempotencykey` or `per_platform.bluesky.txt`. */
  field: string;
  /** The nearest known name at that place, when one is close enough to be a likely typo. */
  suggestion?: string;
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; valueType?: z.ZodType; in?: z.ZodType; catchall?: z.ZodType };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Follows wrappers (optional, default, pipe…) to the schema that holds the value. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const d = defOf(s);
    if (d.innerType) s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else break;
  }
  return s;
}

/** The field names an object schema knows at `path` (array indexes and record keys are stepped through). */
export function knownFieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let s: z.ZodType | undefined = unwrap(schema);
  for (const seg of path) {
    if (!s) return [];
    const d = defOf(s);
    if (d.type === 'object') s = d.shape?.[String(seg)];
    else if (d.type === 'array') s = d.element;
    else if (d.type === 'record') s = d.valueType;
    else return [];
    s = s ? unwrap(s) : undefined;
  }
  if (!s) return [];
  const d = defOf(s);
  return d.type === 'object' ? Object.keys(d.shape ?? {}) : [];
}

/** True for an object schema that takes any extra field (a catchall): such objects are open on purpose. */
export function isOpenObject(schema: z.ZodType): boolean {
  const d = defOf(unwrap(schema));
  return d.type !== 'object' || (d.catchall !== undefined && defOf(d.catchall).type !== 'never');
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The known name closest to `name` (case and separators aside), if it is close enough to be a typo of it. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = norm(k) === norm(name) ? 0 : distance(name.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { name: k, d };
  }
  if (!best) return undefined;
  return best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** The unknown fields zod reported (strict objects answer `unrecognized_keys`), each with its nearest known name. */
export function unknownFieldsOf(schema: z.ZodType, error: z.ZodError): UnknownField[] {
  const out: UnknownField[] = [];
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownFieldsAt(schema, issue.path);
    for (const key of issue.keys) out.push({ field: [...issue.path, key].join('.'), suggestion: nearestName(key, known) });
  }
  return out;
}

/** The fields of `value` (an object) that `known` does not name, each with its nearest known name. */
export function extraFields(value: Record<string, unknown>, known: readonly string[]): UnknownField[] {
  return Object.keys(value).filter((k) => !known.includes(k)).map((k) => ({ field: k, suggestion: nearestName(k, known) }));
}

/** 400 unknown_field: `fields` names them all, `suggestions` maps each to its nearest known name where there is one. */
export function unknownFieldError(fields: UnknownField[], where: 'body' | 'query' | 'row' = 'body'): BadRequestError {
  const said = fields.map((f) => `${f.field}${f.suggestion ? ` (did you mean ${f.suggestion}?)` : ''}`).join(', ');
  const place = where === 'query' ? 'query parameter' : 'field';
  return new BadRequestError(`Unknown ${place}${fields.length > 1 ? 's' : ''}: ${said}. Nothing was done; fix the name${fields.length > 1 ? 's' : ''} and send again`, {
    code: 'unknown_field',
    details: {
      fields: fields.map((f) => f.field),
      suggestions: Object.fromEntries(fields.filter((f) => f.suggestion).map((f) => [f.field, f.suggestion])),
    },
  });
}

/**
 * Keys no schema can name (`__proto__`): JSON.parse keeps them as own fields, but an object built from them drops
 * them silently (the assignment sets the prototype). Answers their dotted paths, at any depth, to refuse them.
 */
export function prototypeKeys(value: unknown, at: string[] = []): UnknownField[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => prototypeKeys(v, [...at, String(i)]));
  return Object.keys(value).flatMap((k) => [
    ...(k === '__proto__' ? [{ field: [...at, k].join('.') }] : []),
    ...prototypeKeys((value as Record<string, unknown>)[k], [...at, k]),
  ]);
}
