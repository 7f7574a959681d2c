import type { Deps } from './deps';
import type { Account, Brand } from '../ports/store';
import { AppError, NotFoundError } from '../domain/errors';
import { isId, newId } from '../domain/ids';
import { PLANS, nextPlan } from '../domain/plans';

export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_SLOTS = ['09:00', '13:00', '17:00'];

export const brandView = (b: Brand) => ({ id: b.id, name: b.name, timezone: b.timezone, slots: b.slots, created_at: b.created_at });

export function upgradeUrl(deps: Pick<Deps, 'settings'>, account: Account): string {
  return `${deps.settings.publicBaseUrl}/dashboard/plan?plan=${nextPlan(account.plan)}`;
}

/**
 * Creates a brand within the plan's brand limit.
 * 1. Reserve a place on the account's brand counter (conditional write; 400 brand_limit_reached with an upgrade link).
 * 2. Write the brand; if that fails, give the place back.
 */
export async function createBrand(deps: Pick<Deps, 'accounts' | 'brands' | 'clock' | 'settings'>, account: Account, name: string) {
  const limit = PLANS[account.plan].brands;
  if (!(await deps.accounts.reserveBrand(account.id, limit))) {
    throw new AppError(400, 'brand_limit_reached', `The ${account.plan} plan includes ${limit} brand${limit === 1 ? '' : 's'}; upgrade to add more`, {
      details: { limit, upgrade_url: upgradeUrl(deps, account) },
    });
  }
  const now = deps.clock.now();
  const brand: Brand = { id: newId('brd', now), account_id: account.id, name, timezone: DEFAULT_TIMEZONE, slots: DEFAULT_SLOTS, created_at: new Date(now).toISOString() };
  try {
    await deps.brands.create(brand);
  } catch (err) {
    await deps.accounts.releaseBrand(account.id);
    throw err;
  }
  return brand;
}

export async function getBrand(deps: Pick<Deps, 'brands'>, accountId: string, brandId: string): Promise<Brand> {
  const brand = isId('brd', brandId) ? await deps.brands.get(accountId, brandId) : undefined;
  if (!brand) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
  return brand;
}

export async function updateBrand(deps: Pick<Deps, 'brands'>, accountId: string, brandId: string, patch: { name?: string; timezone?: string; slots?: string[] }) {
  await getBrand(deps, accountId, brandId);
  const slots = patch.slots ? [...new Set(patch.slots)].sort() : undefined;
  const updated = await deps.brands.update(accountId, brandId, { ...patch, slots });
  if (!updated) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
  return updated;
}
