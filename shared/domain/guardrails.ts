/**
 * Guardrails in force (spec §5.6 "a key cannot raise its own limits"): a key minted by a key is bound by its own
 * guardrails and by those of every key above it (the key that minted it, and so on). Combined, never wider: the
 * allowed networks and brands are the intersection, always-require-approval holds if any says so, and every monthly
 * cap on the line counts this key's posts (each is its own counter, so siblings share their parent's cap).
 */
export interface GuardrailLimits {
  kind: 'key' | 'app';
  id: string;
  monthly_post_cap: number | null;
  allowed_platforms: string[] | null;
  allowed_brands: string[] | null;
  always_require_approval: boolean;
}

/** One monthly cap that a post of the actor counts on: the holder's id (the actor or a key above it) and its cap. */
export interface CapHolder {
  kind: 'key' | 'app';
  id: string;
  cap: number;
}

const intersect = (a: string[] | null, b: string[] | null) => (a === null ? b : b === null ? a : a.filter((x) => b.includes(x)));

/** True when the guardrails limit anything (a key with any limit may not mint keys: 403 key_guardrails). */
export const limitsAnything = (g: GuardrailLimits | undefined): boolean =>
  !!g && (g.monthly_post_cap !== null || g.allowed_platforms !== null || g.allowed_brands !== null || g.always_require_approval);

/**
 * Combines the actor's own guardrails (`own`, may be absent) with those of the keys above it (`above`): undefined
 * when none exists. The answer carries the actor's kind and id, the smallest cap as monthly_post_cap, and `caps`,
 * every cap on the line to count a post against.
 */
export function combineGuardrails<G extends GuardrailLimits>(actor: { kind: 'key' | 'app'; id: string }, own: G | undefined, above: G[]): (G & { caps: CapHolder[] }) | undefined {
  const all = [...(own ? [own] : []), ...above];
  if (all.length === 0) return undefined;
  const base = own ?? above[0]!;
  const caps = all.filter((g) => g.monthly_post_cap !== null).map((g) => ({ kind: g.kind, id: g.id, cap: g.monthly_post_cap! }));
  return {
    ...base, kind: actor.kind, id: actor.id,
    monthly_post_cap: caps.length ? Math.min(...caps.map((c) => c.cap)) : null,
    allowed_platforms: all.map((g) => g.allowed_platforms).reduce(intersect) as G['allowed_platforms'],
    allowed_brands: all.map((g) => g.allowed_brands).reduce(intersect) as G['allowed_brands'],
    always_require_approval: all.some((g) => g.always_require_approval),
    caps,
  };
}
