import type { Deps } from '../deps';
import type { Connection, PostRecord } from '../../ports/publishing';
import type { OAuthProvider, TokenSet } from '../../ports/oauth';
import { isFailure, type Failure } from '../../ports/networks';
import { randomToken } from '../../domain/ids';
import { recordReauth } from '../connect-link/reconnect-notices';
import { networkContext } from '../network-context';
import { redirectUri } from './urls';
import type { CipherContext } from '../../ports/cipher';
import { connectionContext } from '../security/contexts';
import { noticeMs, sweepPlan } from './health';

/** Tokens are renewed when they have less than this left, so a publish never starts with a dying token. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** The refresh lock's lifetime: longer than one refresh call, short enough that a crashed holder frees it soon. */
export const REFRESH_LOCK_TTL_SECONDS = 30;
/** A worker that lost the lock re-reads the connection this often, this many times (about 6 s in all). */
const WAIT_STEP_MS = 150;
const WAIT_STEPS = 40;

export type FreshCredentials = { ok: true; credentials: Record<string, string> } | { ok: false; failure: Failure };

/** What marking a lost sign-in reaches: the connection, and the reauth event with its connect link. */
export type SignInLostDeps = Pick<Deps, 'accounts' | 'brands' | 'clock' | 'connections' | 'events' | 'fanOut' | 'mailer' | 'settings' | 'tokens'>;
/** What renewing credentials reaches: the cipher, the refresh lock, the provider (in a network context), the connection. */
export type FreshCredentialsDeps = SignInLostDeps & Pick<Deps, 'cipher' | 'locks' | 'media' | 'oauth' | 'pace'>;

const needsRefresh = (t: TokenSet, now: number, margin = REFRESH_MARGIN_MS) => t.expires_at !== undefined && t.expires_at - now < margin;
const expired = (t: TokenSet, now: number) => t.expires_at !== undefined && t.expires_at <= now;
const canRefresh = (p: OAuthProvider | undefined, t: TokenSet, now: number) =>
  !!p?.refresh && !!t.refresh_token && (t.refresh_expires_at === undefined || t.refresh_expires_at > now);

/** What an adapter gets for an OAuth connection: `access_token` plus the account fields the provider returned. */
const merge = (tokens: TokenSet, account: Record<string, string>) => ({ access_token: tokens.access_token, ...account });

async function decryptJson<T>(deps: Pick<Deps, 'cipher'>, enc: string, context: CipherContext): Promise<T> {
  return JSON.parse(await deps.cipher.decrypt(enc, context)) as T;
}

/** A connection's credentials as stored, without renewing anything (checks before sending, health pages). */
export async function readCredentials(deps: Pick<Deps, 'cipher'>, c: Connection): Promise<Record<string, string>> {
  const account = await decryptJson<Record<string, string>>(deps, c.credentials_enc, connectionContext(c, 'credentials'));
  return c.tokens_enc ? merge(await decryptJson<TokenSet>(deps, c.tokens_enc, connectionContext(c, 'tokens')), account) : account;
}

/**
 * Marks the connection reauth_required and records connection.reauth_required (with a fresh connect link) —
 * once: the conditional status change lets only the first caller record, however many workers saw the failure.
 */
export async function signInLost(deps: SignInLostDeps, connection: Connection, error: string, post?: PostRecord): Promise<{ ok: false; failure: Failure }> {
  if (await deps.connections.markReauth(connection)) await recordReauth(deps, post, connection, error);
  return { ok: false, failure: { ok: false, kind: 'reauth', error } };
}

/**
 * The credentials to publish with, renewing OAuth tokens first when they expire within REFRESH_MARGIN_MS, or
 * always with `force` (the network answered 401 to `rejected`, the access token it was given).
 * 1. Credential networks: the stored credentials as they are.
 * 2. Tokens that cannot be renewed (no refresh token, or the network has none): used while valid; once expired
 *    (or refused) the sign-in is lost.
 * 3. Renew under the lock `refresh#<connection id>` (LockStore, 30 s): the holder re-reads the connection (another
 *    worker may have just renewed it), calls the provider, stores the new tokens on that very connection and
 *    releases the lock. Workers that lost the lock re-read the connection until the new tokens appear.
 * 4. A network that says the grant is gone (Failure 'reauth') → reauth_required + event (signInLost). Other refresh
 *    failures keep the current token while it is still valid.
 */
export async function freshCredentials(deps: FreshCredentialsDeps, connection: Connection, opts: {
  force?: boolean; rejected?: string; post?: PostRecord;
  /** Renew when the token has less than this left (the sweep renews well ahead; default REFRESH_MARGIN_MS). */
  margin?: number;
  /** Told when the network failed to renew for a reason other than a lost grant (the sweep marks network_down). */
  onRenewalFailure?: (failure: Failure) => void;
} = {}): Promise<FreshCredentials> {
  const margin = opts.margin ?? REFRESH_MARGIN_MS;
  if (!connection.tokens_enc) return { ok: true, credentials: await readCredentials(deps, connection) };
  const now = deps.clock.now();
  const tokens = await decryptJson<TokenSet>(deps, connection.tokens_enc, connectionContext(connection, 'tokens'));
  const account = await decryptJson<Record<string, string>>(deps, connection.credentials_enc, connectionContext(connection, 'credentials'));
  if (!opts.force && !needsRefresh(tokens, now, margin)) return { ok: true, credentials: merge(tokens, account) };

  const provider = deps.oauth.providers[connection.platform];
  if (!canRefresh(provider, tokens, now)) {
    if (opts.force || expired(tokens, now)) {
      return signInLost(deps, connection, `The ${connection.platform} sign-in expired or was revoked and cannot be renewed without signing in again`, opts.post);
    }
    return { ok: true, credentials: merge(tokens, account) };
  }
  const client = await deps.oauth.clients.get(connection.platform);
  if (!client) {
    if (!opts.force && !expired(tokens, now)) return { ok: true, credentials: merge(tokens, account) };
    return { ok: false, failure: { ok: false, kind: 'transient', error: `${connection.platform} sign-in is not configured on this server, so its tokens cannot be renewed` } };
  }

  const lockKey = `refresh#${connection.id}`;
  const owner = randomToken();
  const got = await deps.locks.acquire(lockKey, owner, REFRESH_LOCK_TTL_SECONDS, now);
  // the token that must not come back: the one the network refused, else the one read with the connection
  const stale = opts.rejected ?? tokens.access_token;
  if (!got.ok) return waitForOtherRefresh(deps, connection, stale, tokens);
  try {
    const current = await deps.connections.get(connection.account_id, connection.brand_id, connection.platform);
    if (!current || current.id !== connection.id || !current.tokens_enc) return gone(connection);
    if (current.status === 'reauth_required') return { ok: false, failure: { ok: false, kind: 'reauth', error: `The ${connection.platform} connection needs a new sign-in` } };
    const latest = await decryptJson<TokenSet>(deps, current.tokens_enc, connectionContext(current, 'tokens'));
    // renewed by another worker between our read and the lock
    if (latest.access_token !== stale && !needsRefresh(latest, deps.clock.now(), margin)) return { ok: true, credentials: merge(latest, account) };

    const app = { clientId: client.clientId, clientSecret: client.clientSecret, redirectUri: redirectUri(deps, connection.platform) };
    const res = await provider!.refresh!(latest, app, networkContext(deps, {}));
    if (isFailure(res)) {
      if (res.kind === 'reauth') return signInLost(deps, current, `${connection.platform} refused to renew the sign-in: ${res.error}`, opts.post);
      opts.onRenewalFailure?.(res);
      if (!opts.force && !expired(latest, deps.clock.now())) return { ok: true, credentials: merge(latest, account) };
      return { ok: false, failure: res };
    }
    const next: TokenSet = {
      ...res,
      // an absent (or empty) refresh token in the answer keeps the stored one, with its end date
      refresh_token: res.refresh_token || latest.refresh_token,
      refresh_expires_at: res.refresh_token && res.refresh_token !== latest.refresh_token ? res.refresh_expires_at : res.refresh_expires_at ?? latest.refresh_expires_at,
    };
    // a renewal never drops the stored refresh token: kept above unless the network sent a new one
    const plan = sweepPlan(next, true, deps.clock.now(), noticeMs(deps.settings), current.expiring_notified);
    const saved = await deps.connections.saveTokens(current, {
      tokens_enc: await deps.cipher.encrypt(JSON.stringify(next), connectionContext(current, 'tokens')), token_expires_at: next.expires_at, ...plan,
    });
    if (!saved) return gone(connection);
    return { ok: true, credentials: merge(next, account) };
  } finally {
    await deps.locks.release(lockKey, owner);
  }
}

/** Another worker holds the refresh lock: re-read the connection until its tokens change (or the sign-in is lost). */
async function waitForOtherRefresh(deps: Pick<Deps, 'cipher' | 'clock' | 'connections'>, connection: Connection, stale: string, tokens: TokenSet): Promise<FreshCredentials> {
  for (let i = 0; i < WAIT_STEPS; i++) {
    await deps.clock.sleep(WAIT_STEP_MS);
    const current = await deps.connections.get(connection.account_id, connection.brand_id, connection.platform);
    if (!current || current.id !== connection.id || !current.tokens_enc) return gone(connection);
    if (current.status === 'reauth_required') return { ok: false, failure: { ok: false, kind: 'reauth', error: `The ${connection.platform} connection needs a new sign-in` } };
    const latest = await decryptJson<TokenSet>(deps, current.tokens_enc, connectionContext(current, 'tokens'));
    if (latest.access_token !== stale && latest.access_token !== tokens.access_token) return { ok: true, credentials: await readCredentials(deps, current) };
  }
  if (!expired(tokens, deps.clock.now())) return { ok: true, credentials: await readCredentials(deps, connection) };
  return { ok: false, failure: { ok: false, kind: 'transient', error: `The ${connection.platform} sign-in is being renewed by another worker; try again` } };
}

function gone(connection: Connection): FreshCredentials {
  return { ok: false, failure: { ok: false, kind: 'rejected', code: 'rejected', error: `The ${connection.platform} connection was removed or replaced while its sign-in was renewed` } };
}
