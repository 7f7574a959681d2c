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
  connection: (accountId: string, brandId: string, platform: string) => ({ pk: `ACC#${accountId}`, sk: `CON#${brandId}#${platform}` }),
  connectionPrefix: 'CON#',
  post: (postId: string) => ({ pk: `POST#${postId}`, sk: 'POST' }),
  postByAccount: (accountId: string, postId: string) => ({ gsi1pk: `ACC#${accountId}#POSTS`, gsi1sk: postId }),
  network: (postId: string, platform: string) => ({ pk: `POST#${postId}`, sk: `NET#${platform}` }),
  networkById: (accountId: string, platform: string, networkPostId: string) => ({ gsi1pk: `NETID#${accountId}#${platform}#${networkPostId}`, gsi1sk: 'NET' }),
  event: (postId: string, eventId: string) => ({ pk: `POST#${postId}`, sk: `EVT#${eventId}` }),
  eventByAccount: (accountId: string, eventId: string) => ({ gsi1pk: `ACC#${accountId}#EVENTS`, gsi1sk: eventId }),
  accountEvent: (accountId: string, eventId: string) => ({ pk: `ACC#${accountId}#EVT`, sk: eventId }),
  lock: (key: string) => ({ pk: `LOCK#${key}`, sk: 'LOCK' }),
  pace: (key: string) => ({ pk: `PACE#${key}`, sk: 'PACE' }),
} as const;

export const GSI1 = 'gsi1';

/** Strip the key attributes from an item before handing it to the domain (expires_at is domain data too). */
export function strip<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, ...rest } = item;
  return rest as T;
}
