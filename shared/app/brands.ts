import type { Deps } from './deps';
import type { Account, Brand } from '../ports/store';
import { BadRequestError, NotFoundError } from '../domain/errors';
import { isId, newId } from '../domain/ids';
import { PLANS, nextPlan } from '../domain/plans';
import { bestEffort } from '../log';

export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_SLOTS = ['09:00', '13:00', '17:00'];

export const brandView = (b: Brand) => ({ id: b.id, name: b.name, timezone: b.timezone, slots: b.slots, created_at: b.created_at });

export function upgradeUrl(deps: Pick<Deps, 'settings'>, account: Account): string {
  return `${deps.settings.publicBaseUrl}/dashboard/plan?plan=${nextPlan(account.plan)}`;
}

/** A reservation that has been pending this long belongs to a request that died: its place may be reclaimed. */
export const BRAND_RESERVATION_LEASE_MS = 5 * 60_000;

/**
 * Creates a brand within the plan's brand limit; safe when the table fails between its writes.
 * 1. Reserve a place on the account's brand counter for this brand's id (conditional write; the id stays pending on
 *    the account until step 3). At the limit, first reclaim places of reservations older than the lease (requests
 *    that died mid-way), then try once more; else 400 brand_limit_reached with an upgrade link.
 * 2. Write the brand. If that fails: a brand that is not there gives its place back; if even that cannot be
 *    written, the reservation stays pending and is reclaimed once its lease is over, so no orphan holds a place.
 * 3. Settle the reservation (the brand keeps its place); a lost settle is done by the next reclaim.
 */
export async function createBrand(deps: Pick<Deps, 'accounts' | 'brands' | 'clock' | 'settings'>, account: Account, name: string) {
  const limit = PLANS[account.plan].brands;
  const now = deps.clock.now();
  const id = newId('brd', now);
  let reserved = await deps.accounts.reserveBrand(account.id, limit, id);
  // a racing request may reclaim the place this one would have: try again whenever anything was reclaimable
  if (!reserved && (await reclaimBrandPlaces(deps, account.id, now))) reserved = await deps.accounts.reserveBrand(account.id, limit, id);
  if (!reserved) {
    throw new BadRequestError(`The ${account.plan} plan includes ${limit} brand${limit === 1 ? '' : 's'}; upgrade to add more`, { code: 'brand_limit_reached', details: { limit, upgrade_url: upgradeUrl(deps, account) }, });
  }
  const brand: Brand = { id, account_id: account.id, name, timezone: DEFAULT_TIMEZONE, slots: DEFAULT_SLOTS, created_at: new Date(now).toISOString() };
  try {
    await deps.brands.create(brand);
  } catch (err) {
    await bestEffort('brand place give-back', settleOrRelease(deps, account.id, id), { account_id: account.id, brand_id: id });
    throw err;
  }
  await bestEffort('brand place settle', deps.accounts.settleBrand(account.id, id), { account_id: account.id, brand_id: id });
  return brand;
}

/** A pending reservation decided by whether its brand exists: written keeps its place, not written gives it back. */
async function settleOrRelease(deps: Pick<Deps, 'accounts' | 'brands'>, accountId: string, brandId: string): Promise<void> {
  if (await deps.brands.get(accountId, brandId)) await deps.accounts.settleBrand(accountId, brandId);
  else await deps.accounts.releaseBrand(accountId, brandId);
}

/**
 * Decides every reservation pending for longer than the lease (its request died between the writes): each is
 * settled or released exactly once, whoever else reclaims at the same time. Answers whether any was past its lease
 * (a place may have been freed, by this request or a racing one).
 */
async function reclaimBrandPlaces(deps: Pick<Deps, 'accounts' | 'brands'>, accountId: string, nowMs: number): Promise<boolean> {
  const expired = (await deps.accounts.pendingBrands(accountId)).filter((brandId) => nowMs - ulidTime(brandId) >= BRAND_RESERVATION_LEASE_MS);
  for (const brandId of expired) await settleOrRelease(deps, accountId, brandId);
  return expired.length > 0;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The creation time (ms) of an id: the first 10 characters of its ULID. */
function ulidTime(id: string): number {
  let t = 0;
  for (const c of id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11)) t = t * 32 + CROCKFORD.indexOf(c);
  return t;
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
