import type { Deps } from '../deps';
import type { Brand, Account } from '../../ports/store';
import type { Connection } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import { AppError } from '../../domain/errors';
import { getBrand } from '../brands';

/**
 * Chooses the brand whose connections a post uses (spec §2.2 rules 1–2):
 * 1. brand_id given: it must be the account's (404 brand_not_found otherwise).
 * 2. One brand: that brand.
 * 3. Several brands: the one brand where the requested networks are connected; when they are connected in more
 *    than one brand, the whole request is 409 ambiguous_brand naming those networks.
 */
export async function resolveBrand(deps: Pick<Deps, 'brands' | 'connections'>, account: Account, platforms: PlatformName[], brandId?: string): Promise<{ brand: Brand; connections: Connection[] }> {
  const connections = await deps.connections.listByAccount(account.id);
  if (brandId !== undefined) {
    const brand = await getBrand(deps, account.id, brandId);
    return { brand, connections: connections.filter((c) => c.brand_id === brand.id) };
  }
  const brands = await deps.brands.list(account.id);
  if (brands.length === 1) return { brand: brands[0], connections: connections.filter((c) => c.brand_id === brands[0].id) };
  const relevant = connections.filter((c) => platforms.includes(c.platform));
  const brandIds = [...new Set(relevant.map((c) => c.brand_id))];
  if (brandIds.length > 1) {
    const ambiguous = platforms.filter((p) => relevant.filter((c) => c.platform === p).length > 1);
    throw new AppError(409, 'ambiguous_brand', 'These networks are connected in several brands: send brand_id to say which brand posts', {
      details: { platforms: ambiguous.length ? ambiguous : platforms.filter((p) => relevant.some((c) => c.platform === p)), brands: brandIds },
    });
  }
  const chosen = brands.find((b) => b.id === brandIds[0]) ?? brands.sort((a, b) => a.id.localeCompare(b.id))[0];
  return { brand: chosen, connections: connections.filter((c) => c.brand_id === chosen.id) };
}
