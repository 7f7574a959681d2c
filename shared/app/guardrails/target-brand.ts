import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { Actor } from '../auth';
import { BadRequestError } from '../../domain/errors';
import { getBrand } from '../brands';
import { checkBrandAllowed, loadGuardrails } from './enforce';

/** The brand a connection call targets: the named one, or the only one (several brands need brand_id). */
export async function targetBrand(deps: Pick<Deps, 'brands'>, account: Account, brandId?: string): Promise<Brand> {
  if (brandId !== undefined) return getBrand(deps, account.id, brandId);
  const brands = await deps.brands.list(account.id);
  if (brands.length === 1) return brands[0];
  throw new BadRequestError('This account has several brands: send brand_id to say which brand the connection belongs to', { code: 'brand_required', details: { brands: brands.map((b) => b.id) } });
}

/**
 * The brand a key or AI app targets when it changes connections (connect, OAuth sign-in, connect link): as
 * targetBrand, and within the actor's allowed brands (403 brand_not_allowed), so a brand-limited actor never reaches
 * another brand's connections. Without an actor (the owner's dashboard, a connect link's page) the brand is not limited.
 */
export async function targetBrandFor(deps: Pick<Deps, 'brands' | 'guardrails'>, account: Account, brandId: string | undefined, actor: Actor | undefined): Promise<Brand> {
  const brand = await targetBrand(deps, account, brandId);
  if (actor) checkBrandAllowed(await loadGuardrails(deps, account.id, actor), brand.id);
  return brand;
}
