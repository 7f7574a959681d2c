import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';
import { GoneError, NotFoundError } from '../../domain/errors';
import { randomToken } from '../../domain/ids';
import { sha256Hex } from '../../domain/api-key';

/** Spec §8.3: a connect link is valid for 1 hour. */
export const CONNECT_LINK_TTL_SECONDS = 3600;
const LINK_KIND = 'connect-link';
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A stored connect link: which account and brand it saves into, and (optionally) its one network. */
export interface ConnectLink {
  token: string;
  account_id: string;
  brand_id: string;
  platform?: PlatformName;
  /** Epoch seconds. */
  expires_at: number;
}

export const connectPageUrl = (deps: Pick<Deps, 'settings'>, token: string) => `${deps.settings.publicBaseUrl}/connect/${token}`;

/**
 * Issues a connect link (also used for connection.reauth_required's reconnect_url): a random 256-bit token whose
 * SHA-256 keys an item bound to the account, the brand, optionally one network, and a 1-hour expiry. The token is
 * shown once and never stored.
 */
export async function issueConnectLink(deps: Pick<Deps, 'tokens' | 'clock' | 'settings'>, accountId: string, brandId: string, platform?: PlatformName) {
  const token = randomToken();
  const expiresAt = Math.floor(deps.clock.now() / 1000) + CONNECT_LINK_TTL_SECONDS;
  await deps.tokens.put({
    kind: LINK_KIND, hash: sha256Hex(token), account_id: accountId,
    data: { brand_id: brandId, ...(platform ? { platform } : {}) }, expires_at: expiresAt,
  });
  return {
    url: connectPageUrl(deps, token), token, expires_in: CONNECT_LINK_TTL_SECONDS, brand_id: brandId,
    ...(platform ? { platform } : {}), expires_at: new Date(expiresAt * 1000).toISOString(),
  };
}

/** The link behind a token: 404 link_not_found for an unknown one, 410 connect_link_expired after its hour. */
export async function findConnectLink(deps: Pick<Deps, 'tokens' | 'clock'>, token: string): Promise<ConnectLink> {
  const item = TOKEN_RE.test(token) ? await deps.tokens.peek(LINK_KIND, sha256Hex(token)) : undefined;
  if (!item) throw new NotFoundError('This connect link does not exist; ask for a new one', { code: 'link_not_found' });
  if (item.expires_at < Math.floor(deps.clock.now() / 1000)) {
    throw new GoneError('This connect link has expired (links are valid for 1 hour); ask for a new one', { code: 'connect_link_expired' });
  }
  return { token, account_id: item.account_id, brand_id: item.data.brand_id, platform: item.data.platform as PlatformName | undefined, expires_at: item.expires_at };
}
