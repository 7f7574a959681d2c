import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { EffectiveGuardrails, Guardrails } from '../../ports/guardrails';
import type { Actor } from '../auth';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { ForbiddenError } from '../../domain/errors';
import { nextMonthStart } from '../../domain/usage';
import { failed } from '../network-results';
import { combineGuardrails } from '../../domain/guardrails';

/**
 * Guardrail enforcement in the publish path (spec §5.6): publishPost calls these for the actor that publishes, so
 * every route that publishes (post, schedule, bulk, recurring, approvals, MCP) is covered by the same code.
 */

/** The actor's monthly counter of published networks (like the plan's, per network). */
export const actorCapKey = (accountId: string, actor: Pick<Actor, 'kind' | 'id'>, nowMs: number) =>
  `cap#${accountId}#${actor.kind}#${actor.id}#${new Date(nowMs).toISOString().slice(0, 7)}`;

/** The actor's guardrails in force: its own combined with those of the keys above it (never wider). */
export async function loadGuardrails(deps: Pick<Deps, 'guardrails'>, accountId: string, actor: Actor | undefined): Promise<EffectiveGuardrails | undefined> {
  if (!actor) return undefined;
  const [own, ...above] = await Promise.all([
    deps.guardrails.get(accountId, actor.kind, actor.id),
    ...(actor.above ?? []).map((id) => deps.guardrails.get(accountId, 'key', id)),
  ]);
  return combineGuardrails(actor, own, above.filter((g): g is Guardrails => !!g));
}

/** A brand outside allowed_brands refuses the whole request: 403 brand_not_allowed. */
export function checkBrandAllowed(g: Guardrails | undefined, brandId: string): void {
  if (g?.allowed_brands && !g.allowed_brands.includes(brandId)) {
    throw new ForbiddenError(`This ${g.kind === 'key' ? 'API key' : 'AI app'} may not post to brand ${brandId}`, { code: 'brand_not_allowed', details: { brand_id: brandId, allowed_brands: g.allowed_brands }, });
  }
}

/** A network outside allowed_platforms fails on its own (platform_not_allowed); the others go on. */
export function platformRefusal(g: Guardrails | undefined, platform: PlatformName): NetworkResult | undefined {
  if (!g?.allowed_platforms || g.allowed_platforms.includes(platform)) return undefined;
  return failed(platform, 'platform_not_allowed', `This ${g.kind === 'key' ? 'API key' : 'AI app'} may not post to ${platform}`);
}

const capsOf = (g: Guardrails | EffectiveGuardrails | undefined) =>
  !g ? [] : 'caps' in g ? g.caps : g.monthly_post_cap === null ? [] : [{ kind: g.kind, id: g.id, cap: g.monthly_post_cap }];

const capReached = (actor: Actor, cap: number, used: number, count: number) =>
  new ForbiddenError(`This ${actor.kind === 'key' ? 'API key' : 'AI app'} may publish ${cap} network posts a month; ${Math.max(0, cap - used)} are left and this post needs ${count}`, { code: 'key_monthly_cap_reached', details: { cap, used, needed: count }, });

/**
 * Whether `count` networks fit every monthly cap on the actor's line now, without reserving: a post held for approval
 * that could never be published is refused at submission with the code a direct post gets (403 key_monthly_cap_reached).
 */
export async function checkActorCap(deps: Pick<Deps, 'counters'>, account: Account, actor: Actor | undefined, g: Guardrails | EffectiveGuardrails | undefined, count: number, nowMs: number): Promise<void> {
  if (!actor || count === 0) return;
  for (const c of capsOf(g)) {
    const used = await deps.counters.get(actorCapKey(account.id, c, nowMs));
    if (used + count > c.cap) throw capReached(actor, c.cap, used, count);
  }
}

/**
 * Reserves `count` networks on every monthly cap on the actor's line (its own, and those of the keys above it), each
 * with one conditional write (never exceeded under concurrency): 403 key_monthly_cap_reached when they do not fit, and
 * the places taken on the others are given back. Answers the counter keys, to give places back later.
 */
export async function reserveActorCap(deps: Pick<Deps, 'counters'>, account: Account, actor: Actor | undefined, g: Guardrails | EffectiveGuardrails | undefined, count: number, nowMs: number): Promise<string[]> {
  if (!actor || count === 0) return [];
  const ttl = Math.floor(nextMonthStart(nowMs).getTime() / 1000) + 86_400 * 40;
  const taken: string[] = [];
  for (const c of capsOf(g)) {
    const key = actorCapKey(account.id, c, nowMs);
    const r = await deps.counters.increment(key, count, c.cap, ttl);
    if (!r.allowed) {
      for (const k of taken) await deps.counters.release(k, count);
      throw capReached(actor, c.cap, r.count, count);
    }
    taken.push(key);
  }
  return taken;
}
