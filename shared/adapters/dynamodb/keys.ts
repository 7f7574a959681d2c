/**
 * Every key shape of the single table, in one module (see docs/key-design.md).
 * pk/sk: the item's identity; gsi1pk/gsi1sk: the one secondary index; expires_at: the TTL attribute (epoch seconds).
 */
export const keys = {
  account: (accountId: string) => ({ pk: `ACC#${accountId}`, sk: 'ACCOUNT' }),
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  apiKey: (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' }),
  apiKeyByAccount: (accountId: string, keyId: string) => ({ gsi1pk: `ACC#${accountId}#KEYS`, gsi1sk: keyId }),
  brand: (accountId: string, brandId: string) => ({ pk: `ACC#${accountId}`, sk: `BRAND#${brandId}` }),
  brandPrefix: 'BRAND#',
  token: (kind: string, hash: string) => ({ pk: `TOKEN#${kind}#${hash}`, sk: 'TOKEN' }),
  counter: (key: string) => ({ pk: `CTR#${key}`, sk: 'CTR' }),
} as const;

export const GSI1 = 'gsi1';

/** Strip the key attributes from an item before handing it to the domain (expires_at is domain data too). */
export function strip<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, ...rest } = item;
  return rest as T;
}
