import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';
import { BadRequestError, GoneError } from '../../domain/errors';
import { randomToken } from '../../domain/ids';
import { sha256Hex } from '../../domain/api-key';

/** How long a sign-in may take between the authorize URL and the callback. */
export const STATE_TTL_SECONDS = 15 * 60;
const STATE_KIND = 'oauth-state';

/** RFC 7636: a 256-bit verifier (43 url-safe characters) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: challengeOf(verifier) };
}
export const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** What a state stands for: who started the sign-in, for which brand and network, and where it ends. */
export interface OAuthState {
  account_id: string;
  brand_id: string;
  platform: PlatformName;
  /** PKCE verifier (networks that take a challenge), bound to this state only. */
  code_verifier?: string;
  /** POST /api/oauth/{platform}/url: where the browser goes after the callback. */
  redirect_after?: string;
  /** Started from a connect link: that link's token, to send the person back to its page. */
  link_token?: string;
  /** SHA-256 of the browser nonce (shared/app/oauth/browser.ts) the callback must be presented with. */
  browser_hash?: string;
}

/**
 * Stores a new state: a random 256-bit value whose SHA-256 is the key of a one-time item bound to the account,
 * the brand, the network and an expiry; the PKCE verifier and the connect-link token inside are encrypted.
 * The state itself is never stored, so a tampered or guessed value finds nothing.
 */
export async function createState(deps: Pick<Deps, 'tokens' | 'cipher' | 'clock'>, s: OAuthState, opts: { notAfterSec?: number } = {}): Promise<string> {
  const state = randomToken();
  const nowSec = Math.floor(deps.clock.now() / 1000);
  const data: Record<string, string> = { platform: s.platform, brand_id: s.brand_id };
  if (s.code_verifier) data.verifier_enc = await deps.cipher.encrypt(s.code_verifier);
  if (s.redirect_after) data.redirect_after = s.redirect_after;
  if (s.link_token) data.link_enc = await deps.cipher.encrypt(s.link_token);
  if (s.browser_hash) data.browser = s.browser_hash;
  await deps.tokens.put({
    kind: STATE_KIND, hash: sha256Hex(state), account_id: s.account_id, data,
    expires_at: Math.min(nowSec + STATE_TTL_SECONDS, opts.notAfterSec ?? Number.MAX_SAFE_INTEGER),
  });
  return state;
}

/**
 * Uses a state once (spec: `state` bound to account, brand and expiry). An unknown value (tampered, made up, or
 * from another deployment) is 400 oauth_state_invalid; a second use (a replayed callback) is 400 oauth_state_used;
 * a late one is 410 oauth_state_expired. A state of another network is refused like an unknown one.
 */
export async function consumeState(deps: Pick<Deps, 'tokens' | 'cipher' | 'clock'>, platform: PlatformName, state: string | undefined): Promise<OAuthState> {
  if (!state || state.length > 200) throw new BadRequestError('The sign-in answer carries no valid state: start the connection again', { code: 'oauth_state_invalid' });
  const res = await deps.tokens.consume(STATE_KIND, sha256Hex(state), deps.clock.now());
  if (!res.ok) {
    if (res.reason === 'used') throw new BadRequestError('This sign-in answer was already used: start the connection again', { code: 'oauth_state_used' });
    if (res.reason === 'expired') throw new GoneError('This sign-in took too long and expired: start the connection again', { code: 'oauth_state_expired' });
    throw new BadRequestError('This sign-in answer is not one this service started (unknown or altered state): start the connection again', { code: 'oauth_state_invalid' });
  }
  const { data, account_id } = res.token;
  if (data.platform !== platform) throw new BadRequestError('This sign-in answer belongs to another network: start the connection again', { code: 'oauth_state_invalid' });
  return {
    account_id, brand_id: data.brand_id, platform,
    code_verifier: data.verifier_enc ? await deps.cipher.decrypt(data.verifier_enc) : undefined,
    redirect_after: data.redirect_after,
    link_token: data.link_enc ? await deps.cipher.decrypt(data.link_enc) : undefined,
    browser_hash: data.browser,
  };
}
