import type { Branding, BrandingStore } from '../../ports/branding';
import type { TableRef } from './client';
import { entity, type Bound } from './entity';
import { keys } from './keys';

/** A white-label settings item under the account's partition (BRANDING#<scope>). */
const brandingEntity = entity({ key: keys.branding, keyOf: (b: Branding) => keys.branding(b.account_id, b.scope) });

/** White-label settings under the account's partition (BRANDING#<scope>). */
export class DynamoBrandingStore implements BrandingStore {
  private readonly items: Bound<typeof brandingEntity>;
  constructor(t: TableRef) {
    this.items = brandingEntity.on(t);
  }

  get(accountId: string, scope: string) {
    return this.items.get(accountId, scope);
  }

  put(b: Branding) {
    return this.items.put(b);
  }

  list(accountId: string) {
    return this.items.query({ pk: keys.account(accountId).pk, beginsWith: keys.brandingPrefix });
  }
}
