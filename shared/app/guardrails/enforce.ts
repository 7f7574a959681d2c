import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { Guardrails } from '../../ports/guardrails';
import type { Actor } from '../auth';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { AppError } from '../../domain/errors';
import { nextMonthStart } from '../../domain/usage';
import { failed } from '../publish/results';

/**
 * Guardrail enforcement in the publish path (spec §5.6): publishPost calls these for the actor that publishes, so
 * every route that publishes (post, schedule, bulk, recurring, approvals, MCP) is covered by the same code.
 */

/** The actor's monthly counter of published networks (like the plan's, per network). */
export const actorCapKey = (accountId: string, actor: Actor, nowMs: number) =>
  `cap#${accountId}#${actor.kind}#${actor.id}#${new Date(nowMs).toISOString().slice(0, 7)}`;

export async function loadGuardrails(deps: Pick<Deps, 'guardrails'>, accountId: string, actor: Actor | undefined): Promise<Guardrails | undefined> {
  return actor ? deps.guardrails.get(accountId, actor.kind, actor.id) : undefined;
}

/** A brand outside allowed_brands refuses the whole request: 403 brand_not_allowed. */
export function checkBrandAllowed(g: Guardrails | undefined, brandId: string): void {
  if (g?.allowed_brands && !g.allowed_brands.includes(brandId)) {
    throw new AppError(403, 'brand_not_allowed', `This ${g.kind === 'key' ? 'API key' : 'AI app'} may not post to brand ${brandId}`, {
      details: { brand_id: brandId, allowed_brands: g.allowed_brands },
    });
  }
}

/** A network outside allowed_platforms fails on its own (platform_not_allowed); the others go on. */
export function platformRefusal(g: Guardrails | undefined, platform: PlatformName): NetworkResult | undefined {
  if (!g?.allowed_platforms || g.allowed_platforms.includes(platform)) return undefined;
  return failed(platform, 'platform_not_allowed', `This ${g.kind === 'key' ? 'API key' : 'AI app'} may not post to ${platform}`);
}

/**
 * Reserves `count` networks on the actor's monthly cap with one conditional write (never exceeded under
 * concurrency): 403 key_monthly_cap_reached when they do not fit. Answers the counter key to give places back.
 */
export async function reserveActorCap(deps: Pick<Deps, 'counters'>, account: Account, actor: Actor | undefined, g: Guardrails | undefined, count: number, nowMs: number): Promise<string | undefined> {
  if (!actor || g?.monthly_post_cap === null || g?.monthly_post_cap === undefined || count === 0) return undefined;
  const key = actorCapKey(account.id, actor, nowMs);
  const ttl = Math.floor(nextMonthStart(nowMs).getTime() / 1000) + 86_400 * 40;
  const r = await deps.counters.increment(key, count, g.monthly_post_cap, ttl);
  if (!r.allowed) throw actorCapReached(actor, g.monthly_post_cap, r.count, count);
  return key;
}

/** 403 key_monthly_cap_reached: `count` networks do not fit in the actor's cap with `used` spent. */
export function actorCapReached(actor: Actor, cap: number, used: number, count: number): AppError {
  return new AppError(403, 'key_monthly_cap_reached', `This ${actor.kind === 'key' ? 'API key' : 'AI app'} may publish ${cap} network posts a month; ${Math.max(0, cap - used)} are left and this post needs ${count}`, {
    details: { cap, used, needed: count },
  });
}
