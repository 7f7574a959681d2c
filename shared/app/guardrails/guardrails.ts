import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { Guardrails } from '../../ports/guardrails';
import type { Actor } from '../auth';
import type { GuardrailsInput } from '../../api/guardrail-schemas';
import { NotFoundError, PlanFeatureError } from '../../domain/errors';
import { PLANS } from '../../domain/plans';
import { actorCapKey, loadGuardrails } from './enforce';

type GDeps = Pick<Deps, 'guardrails' | 'keys' | 'brands' | 'apps' | 'clock' | 'settings' | 'counters'>;

/** The 402 of a feature that starts on a given plan (decisions.md: approvals and guardrails from Starter). */
export function planFeature(deps: Pick<Deps, 'settings'>, feature: string, plan: 'starter' | 'pro') {
  return new PlanFeatureError(`${feature} ${plan === 'starter' ? 'are' : 'is'} included from the ${plan} plan on`, {
    details: { plan, upgrade_url: `${deps.settings.publicBaseUrl}/dashboard/plan?plan=${plan}` },
  });
}

/** The guardrails view (none set: every limit null); without `stored`, those in force (with the keys above the actor). */
export async function guardrailsView(deps: Pick<Deps, 'guardrails' | 'counters' | 'clock'>, accountId: string, actor: Actor, stored?: Guardrails | null) {
  const g = stored === undefined ? await loadGuardrails(deps, accountId, actor) : stored ?? undefined;
  const used = await deps.counters.get(actorCapKey(accountId, actor, deps.clock.now()));
  return {
    kind: actor.kind, id: actor.id,
    monthly_post_cap: g?.monthly_post_cap ?? null, allowed_platforms: g?.allowed_platforms ?? null, allowed_brands: g?.allowed_brands ?? null,
    always_require_approval: g?.always_require_approval ?? false, used_this_month: used, updated_at: g?.updated_at ?? null,
  };
}

/**
 * PUT /api/guardrails/{kind}/{id} (spec §5.6; dashboard session only, enforced by the route's auth):
 * 1. Free plan: 402 plan_feature naming starter.
 * 2. The actor must be the account's: a live API key, or an AI app known to the app registry (404 otherwise).
 * 3. Every allowed brand must be the account's (404 brand_not_found).
 * 4. The body replaces the actor's guardrails (a missing limit is no limit).
 */
export async function setGuardrails(deps: GDeps, account: Account, actor: Actor, input: GuardrailsInput) {
  if (!PLANS[account.plan].guardrails) throw planFeature(deps, 'Guardrails', 'starter');
  if (actor.kind === 'key') {
    const key = (await deps.keys.listByAccount(account.id)).find((k) => k.id === actor.id);
    if (!key || key.revoked_at) throw new NotFoundError('No such API key', { code: 'key_not_found' });
  } else if (!(await deps.apps.exists(account.id, actor.id))) {
    throw new NotFoundError('No such AI app', { code: 'app_not_found' });
  }
  const brands = input.allowed_brands ? [...new Set(input.allowed_brands)] : null;
  for (const b of brands ?? []) {
    if (!(await deps.brands.get(account.id, b))) throw new NotFoundError(`No such brand: ${b}`, { code: 'brand_not_found', details: { brand_id: b } });
  }
  const g: Guardrails = {
    account_id: account.id, kind: actor.kind, id: actor.id,
    monthly_post_cap: input.monthly_post_cap ?? null,
    allowed_platforms: input.allowed_platforms ? [...new Set(input.allowed_platforms)] : null,
    allowed_brands: brands,
    always_require_approval: input.always_require_approval ?? false,
    updated_at: new Date(deps.clock.now()).toISOString(),
  };
  await deps.guardrails.put(g);
  return { guardrails: await guardrailsView(deps, account.id, actor, g) };
}
