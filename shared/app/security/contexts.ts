import type { CipherContext } from '../../ports/cipher';

/**
 * The encryption contexts of stored secrets: each encrypted value is bound to its account and item, so a
 * value copied into another account's item (or another field) does not decrypt there.
 */

/** A connection's credentials or tokens: account, brand and network (one connection per brand and network). */
export const connectionContext = (c: { account_id: string; brand_id: string; platform: string }, field: 'credentials' | 'tokens'): CipherContext =>
  ({ account: c.account_id, brand: c.brand_id, platform: c.platform, field });

/** A webhook endpoint's signing secret (the current and, after a rotation, the previous one). */
export const webhookSecretContext = (e: { account_id: string; id: string }): CipherContext =>
  ({ account: e.account_id, webhook: e.id, field: 'secret' });
