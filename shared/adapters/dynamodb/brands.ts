import type { Brand, BrandStore } from '../../ports/store';
import type { TableRef } from './client';
import { cond } from './conditions';
import { conditional, entity, orUndefined, type Bound } from './entity';
import { keys } from './keys';

export const brandEntity = entity({ key: keys.brand, keyOf: (b: Brand) => keys.brand(b.account_id, b.id) });

/** Brands live under their account's partition, so listing is one query. */
export class DynamoBrandStore implements BrandStore {
  private readonly items: Bound<typeof brandEntity>;
  constructor(t: TableRef) { this.items = brandEntity.on(t); }

  create(b: Brand) {
    return conditional(this.items.put(b, { if: cond.absent }));
  }

  get(accountId: string, brandId: string) {
    return this.items.get(accountId, brandId);
  }

  list(accountId: string) {
    return this.items.query({ pk: keys.account(accountId).pk, beginsWith: keys.brandPrefix });
  }

  async update(accountId: string, brandId: string, patch: Partial<Pick<Brand, 'name' | 'timezone' | 'slots'>>) {
    const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length === 0) return this.get(accountId, brandId);
    return orUndefined(this.items.updateAndRead([accountId, brandId], { set }, { if: cond.present }));
  }
}
