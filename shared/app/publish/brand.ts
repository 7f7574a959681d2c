import type { Deps } from '../deps';
import type { Brand, Account } from '../../ports/store';
import type { Connection } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import { ConflictError, NotFoundError } from '../../domain/errors';

/**
 * Chooses the brand whose connections a post uses (spec §2.2 rules 1–2):
 * 1. brand_id given: it must be the account's (404 brand_not_found otherwise).
 * 2. One brand: that brand.
 * 3. Several brands: the one brand where the requested networks are connected; when they are connected in more
 *    than one brand, the whole request is 409 ambiguous_brand naming those networks.
 */
export async function resolveBrand(deps: Pick<Deps, 'brands' | 'connections'>, account: Account, platforms: PlatformName[], brandId?: string): Promise<{ brand: Brand; connections: Connection[] }> {
  const [brands, connections] = await Promise.all([deps.brands.list(account.id), deps.connections.listByAccount(account.id)]);
  return chooseBrand({ brands, connections }, platforms, brandId);
}

/** resolveBrand's rules over the account's brands and connections already read (the publish path's one query). */
export function chooseBrand(ctx: { brands: Brand[]; connections: Connection[] }, platforms: PlatformName[], brandId?: string): { brand: Brand; connections: Connection[] } {
  const { brands, connections } = ctx;
  if (brandId !== undefined) {
    const brand = brands.find((b) => b.id === brandId);
    if (!brand) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
    return { brand, connections: connections.filter((c) => c.brand_id === brand.id) };
  }
  if (brands.length === 1) return { brand: brands[0], connections: connections.filter((c) => c.brand_id === brands[0].id) };
  const relevant = connections.filter((c) => platforms.includes(c.platform));
  const brandIds = [...new Set(relevant.map((c) => c.brand_id))];
  if (brandIds.length > 1) {
    const ambiguous = platforms.filter((p) => relevant.filter((c) => c.platform === p).length > 1);
    throw new ConflictError('These networks are connected in several brands: send brand_id to say which brand posts', { code: 'ambiguous_brand', details: { platforms: ambiguous.length ? ambiguous : platforms.filter((p) => relevant.some((c) => c.platform === p)), brands: brandIds }, });
  }
  const chosen = brands.find((b) => b.id === brandIds[0]) ?? [...brands].sort((a, b) => a.id.localeCompare(b.id))[0];
  return { brand: chosen, connections: connections.filter((c) => c.brand_id === chosen.id) };
}
