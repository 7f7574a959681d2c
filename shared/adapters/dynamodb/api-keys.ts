import type { ApiKeyRecord, KeyStore } from '../../ports/store';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

const apiKey = entity({
  key: keys.apiKey,
  keyOf: (k: ApiKeyRecord) => keys.apiKey(k.hash),
  indexOf: (k: ApiKeyRecord) => keys.apiKeyByAccount(k.account_id, k.id),
});

/**
 * API keys: one item per key, keyed by the SHA-256 of the key so authentication is one strongly consistent read
 * (a revocation is effective at once); the GSI lists an account's keys.
 */
export class DynamoKeyStore implements KeyStore {
  private readonly items: Bound<typeof apiKey>;
  constructor(t: TableRef) { this.items = apiKey.on(t); }

  create(record: ApiKeyRecord) {
    return this.items.put(record, { if: cond.absent });
  }

  getByHash(hash: string) {
    return this.items.get(hash);
  }

  listByAccount(accountId: string) {
    return this.items.query({ gsi1pk: keys.apiKeyByAccount(accountId, '').gsi1pk });
  }

  async revoke(accountId: string, keyId: string, at: string) {
    const found = (await this.listByAccount(accountId)).find((k) => k.id === keyId);
    if (!found) return false;
    return conditional(this.items.update([found.hash], { set: { revoked_at: at } }, {
      // the caller's key, revoked only once
      if: and(cond.present, cond.ownedBy, cond.notRevoked), values: { ':account': accountId },
    }));
  }
}
