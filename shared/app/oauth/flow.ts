import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { Connection } from '../../ports/publishing';
import type { OAuthAccount, OAuthApp, OAuthProvider, TokenSet } from '../../ports/oauth';
import { isFailure } from '../../ports/networks';
import { AppError, BadGatewayError, BadRequestError, GoneError, NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import { newId, randomToken } from '../../domain/ids';
import { checkRedirectAfter } from '../security/redirects';
import { envName, isPlatformName, OAUTH_PLATFORMS, platform as platformInfo, type PlatformName } from '../../domain/platforms';
import { sha256Hex } from '../../domain/api-key';
import { targetBrandFor } from '../guardrails/target-brand';
import type { Actor } from '../auth';
import { labelOf } from '../../domain/event-refs';
import { networkContext } from '../network-context';
import { consumeState, createState, pkcePair, STATE_TTL_SECONDS } from './state';
import { redirectUri } from './urls';
import { newBrowserNonce } from './browser';
import { connectionContext } from '../security/contexts';
import { connectionView, noticeMs, sweepPlan } from './health';

const PICK_KIND = 'oauth-pick';
const START_KIND = 'oauth-start';

/** An OAuth network ready for a sign-in: its provider and the service's registration there. */
export interface ReadyNetwork {
  platform: PlatformName;
  provider: OAuthProvider;
  app: OAuthApp;
}

/** Whether this deployment can run the network's sign-in (provider present and client configured). */
export async function isConfigured(deps: Pick<Deps, 'oauth'>, platform: PlatformName): Promise<boolean> {
  return !!deps.oauth.providers[platform] && !!(await deps.oauth.clients.get(platform));
}

/**
 * The provider and registration of an OAuth network: 400 not_oauth_platform for any other network (credential
 * networks connect with POST /api/connect), 503 oauth_not_configured when this deployment has no client for it.
 */
export async function readyNetwork(deps: Pick<Deps, 'oauth' | 'settings'>, name: string): Promise<ReadyNetwork> {
  if (!isPlatformName(name) || !platformInfo(name).oauth) {
    throw new BadRequestError(`${name} does not connect through OAuth; OAuth networks are ${OAUTH_PLATFORMS.join(', ')}` +
      (isPlatformName(name) ? ` (${name} connects with POST /api/connect)` : ''), { code: 'not_oauth_platform', details: { platform: name, oauth_platforms: OAUTH_PLATFORMS } });
  }
  const provider = deps.oauth.providers[name];
  const client = await deps.oauth.clients.get(name);
  if (!provider || !client) {
    throw new ServiceUnavailableError(`${name} sign-in is not configured on this server (its operator sets ${envName(name)}_CLIENT_ID and ${envName(name)}_CLIENT_SECRET)`, { code: 'oauth_not_configured', details: { platform: name }, });
  }
  return { platform: name, provider, app: { clientId: client.clientId, clientSecret: client.clientSecret, redirectUri: redirectUri(deps, name) } };
}

/**
 * The origins of the sign-in pages of the configured OAuth networks among `platforms` (a hosted page's forms
 * redirect there): the origin of each provider's authorize URL, built without a state.
 */
export async function signInOrigins(deps: Pick<Deps, 'oauth' | 'settings'>, platforms: readonly PlatformName[]): Promise<string[]> {
  const origins: string[] = [];
  for (const p of platforms) {
    if (!platformInfo(p).oauth || !(await isConfigured(deps, p))) continue;
    const net = await readyNetwork(deps, p);
    const url = await net.provider.authorizeUrl({ app: net.app, state: 'origin', ...(net.provider.pkce ? { codeChallenge: 'origin' } : {}) });
    const origin = URL.parse(url, deps.settings.publicBaseUrl)?.origin;
    if (origin && origin !== 'null') origins.push(origin);
  }
  return origins;
}

/**
 * Builds the network's authorize URL for a new state (with a PKCE pair when the network takes one), bound to a new
 * browser nonce: the caller sets the nonce cookie in the browser it sends to `url`.
 */
export async function authorizeUrl(deps: Pick<Deps, 'cipher' | 'clock' | 'tokens'>, net: ReadyNetwork, s: { account_id: string; brand_id: string; redirect_after?: string; link_token?: string }, notAfterSec?: number) {
  const pkce = net.provider.pkce ? pkcePair() : undefined;
  const nonce = newBrowserNonce();
  const state = await createState(deps, { ...s, platform: net.platform, code_verifier: pkce?.verifier, browser_hash: sha256Hex(nonce) }, { notAfterSec });
  return { url: await net.provider.authorizeUrl({ app: net.app, state, codeChallenge: pkce?.challenge }), nonce };
}

/**
 * POST /api/oauth/{platform}/url: the sign-in URL for one of the account's brands.
 * 1. An OAuth network with a configured client (400 not_oauth_platform / 503 oauth_not_configured).
 * 2. The brand (named, or the only one; several → 400 brand_required).
 * 3. redirect_after only to an allowed origin (400 invalid_redirect).
 * 4. A one-time state bound to account, brand, network, a browser nonce and a 15-minute expiry; PKCE where the
 *    network takes it. The answered URL is this service's start link (one use), which sets the nonce cookie in the
 *    browser that opens it and sends it on to the network.
 */
export async function startOAuth(deps: Pick<Deps, 'brands' | 'cipher' | 'clock' | 'guardrails' | 'oauth' | 'settings' | 'tokens'>, account: Account, name: string, input: { brand_id?: string; redirect_after?: string }, actor?: Actor) {
  const net = await readyNetwork(deps, name);
  const brand = await targetBrandFor(deps, account, input.brand_id, actor);
  const redirect_after = checkRedirectAfter(deps, account, input.redirect_after);
  const { url, nonce } = await authorizeUrl(deps, net, { account_id: account.id, brand_id: brand.id, redirect_after });
  const start = randomToken();
  await deps.tokens.put({
    kind: START_KIND, hash: sha256Hex(start), account_id: account.id,
    data: { platform: net.platform, authorize_enc: await deps.cipher.encrypt(url), nonce_enc: await deps.cipher.encrypt(nonce) },
    expires_at: Math.floor(deps.clock.now() / 1000) + STATE_TTL_SECONDS,
  });
  const startUrl = `${deps.settings.publicBaseUrl}/api/oauth/${net.platform}/callback?start=${start}`;
  return { url: startUrl, platform: net.platform, brand_id: brand.id, expires_in: STATE_TTL_SECONDS };
}

/**
 * GET /api/oauth/{platform}/callback?start=<token>: the sign-in URL of POST /api/oauth/{platform}/url, opened in a
 * browser (served by the callback route, so no extra function).
 * Uses the start token once and answers where to send the browser and the nonce to give it (as a cookie). A used,
 * expired or unknown token is 400/410: nothing else is revealed.
 */
export async function beginOAuth(deps: Pick<Deps, 'tokens' | 'cipher' | 'clock'>, name: string, token: string | undefined): Promise<{ location: string; nonce: string; platform: PlatformName }> {
  const res = token && token.length <= 200 ? await deps.tokens.consume(START_KIND, sha256Hex(token), deps.clock.now()) : undefined;
  if (!res?.ok || res.token.data.platform !== name || !isPlatformName(name)) {
    if (res && !res.ok && res.reason === 'expired') throw new GoneError('This sign-in link expired: start the connection again', { code: 'oauth_state_expired' });
    if (res && !res.ok && res.reason === 'used') throw new BadRequestError('This sign-in link was already opened: start the connection again', { code: 'oauth_state_used' });
    throw new BadRequestError('This sign-in link is not one this service made: start the connection again', { code: 'oauth_state_invalid' });
  }
  return { location: await deps.cipher.decrypt(res.token.data.authorize_enc), nonce: await deps.cipher.decrypt(res.token.data.nonce_enc), platform: name };
}

/** Where a finished sign-in leads: back to the connect page it came from, to redirect_after, or a result page. */
interface Return {
  redirect_after?: string;
  link_token?: string;
}
export type CallbackOutcome =
  | ({ kind: 'connected'; platform: PlatformName; brand: { id: string; name: string }; connection: ReturnType<typeof connectionView> } & Return)
  | ({ kind: 'pick'; platform: PlatformName; brand: { id: string; name: string }; pick: string; accounts: Array<{ id: string; handle: string }> } & Return)
  | ({ kind: 'failed'; platform: string; status: number; code: string; message: string } & Return);

const failedOutcome = (platform: string, err: AppError, back: Return = {}): CallbackOutcome =>
  ({ kind: 'failed', platform, status: err.status, code: err.code, message: err.message, ...back });

/**
 * The callback (GET /api/oauth/{platform}/callback?code&state).
 * 1. Use the state once (tampered/unknown 400, replayed 400, late 410); it names the account, brand and network.
 *    The browser must hold the state's nonce cookie (400 oauth_browser_mismatch), checked before the code is used.
 * 2. The network's own refusal (error=access_denied …) ends here.
 * 3. Exchange the code (with the state's PKCE verifier) and list the accounts the tokens can post as.
 * 4. One account: save the connection (tokens encrypted). Several (Facebook pages, Instagram business accounts,
 *    channels…): keep the tokens for 15 minutes under a one-time pick token and let the person choose.
 */
export async function completeOAuth(
  deps: Pick<Deps, 'brands' | 'cipher' | 'clock' | 'connections' | 'media' | 'oauth' | 'pace' | 'settings' | 'tokens'>, name: string, q: { code?: string; state?: string; error?: string; error_description?: string }, browserNonce?: string,
): Promise<CallbackOutcome> {
  if (!isPlatformName(name) || !platformInfo(name).oauth) return failedOutcome(name, new NotFoundError(`${name} has no OAuth sign-in`, { code: 'not_found' }));
  let back: Return = {};
  try {
    const s = await consumeState(deps, name, q.state);
    back = { redirect_after: s.redirect_after, link_token: s.link_token };
    if (s.browser_hash && (!browserNonce || sha256Hex(browserNonce) !== s.browser_hash)) {
      throw new BadRequestError('This sign-in was started in another browser (or its cookie was lost): start the connection again from this browser', { code: 'oauth_browser_mismatch' });
    }
    if (q.error) throw new BadRequestError(`${name} did not grant access: ${(q.error_description ?? q.error).slice(0, 300)}`, { code: 'oauth_denied' });
    if (!q.code) throw new BadRequestError(`${name} sent no authorization code back`, { code: 'oauth_code_missing' });
    const net = await readyNetwork(deps, name);
    const brand = await brandOf(deps, s.account_id, s.brand_id);
    const ctx = networkContext(deps, {});
    const tokens = await net.provider.exchangeCode({ app: net.app, code: q.code, codeVerifier: s.code_verifier }, ctx);
    if (isFailure(tokens)) throw new BadGatewayError(`${name} refused the sign-in code: ${tokens.error}`, { code: 'oauth_exchange_failed' });
    const accounts = await net.provider.accounts(tokens, ctx);
    if (isFailure(accounts)) throw new BadGatewayError(`${name} did not list the accounts of this sign-in: ${accounts.error}`, { code: 'oauth_accounts_failed' });
    if (accounts.length === 0) throw new BadRequestError(`This ${name} sign-in has nothing to post as (no page, channel or business account)`, { code: 'oauth_no_accounts' });
    if (accounts.length === 1) return await connected(deps, s.account_id, brand, name, tokens, accounts[0], back);
    const pick = randomToken();
    await deps.tokens.put({
      kind: PICK_KIND, hash: sha256Hex(pick), account_id: s.account_id,
      data: {
        platform: name, brand_id: brand.id,
        tokens_enc: await deps.cipher.encrypt(JSON.stringify(tokens)),
        accounts_enc: await deps.cipher.encrypt(JSON.stringify(accounts)),
        ...(back.redirect_after ? { redirect_after: back.redirect_after } : {}),
        ...(back.link_token ? { link_enc: await deps.cipher.encrypt(back.link_token) } : {}),
      },
      expires_at: Math.floor(deps.clock.now() / 1000) + STATE_TTL_SECONDS,
    });
    return { kind: 'pick', platform: name, brand: { id: brand.id, name: brand.name }, pick, accounts: accounts.map((a) => ({ id: a.id, handle: a.handle })), ...back };
  } catch (err) {
    if (err instanceof AppError) return failedOutcome(name, err, back);
    throw err;
  }
}

/**
 * The picker's answer (POST /api/oauth/{platform}/pick {pick, account}): uses the pick token once and saves the
 * chosen page / business account with the tokens of that sign-in.
 */
export async function completePick(deps: Pick<Deps, 'brands' | 'cipher' | 'clock' | 'connections' | 'tokens' | 'oauth' | 'settings'>, name: string, input: { pick?: string; account?: string }): Promise<CallbackOutcome> {
  if (!isPlatformName(name) || !platformInfo(name).oauth) return failedOutcome(name, new NotFoundError(`${name} has no OAuth sign-in`, { code: 'not_found' }));
  const res = input.pick && input.pick.length <= 200 ? await deps.tokens.consume(PICK_KIND, sha256Hex(input.pick), deps.clock.now()) : undefined;
  if (!res?.ok || res.token.data.platform !== name) {
    const reason = res && !res.ok ? res.reason : 'missing';
    return reason === 'expired'
      ? failedOutcome(name, new GoneError('This choice expired: start the connection again', { code: 'oauth_pick_expired' }))
      : failedOutcome(name, new BadRequestError(reason === 'used' ? 'This choice was already made' : 'This choice is not valid: start the connection again', { code: reason === 'used' ? 'oauth_pick_used' : 'oauth_pick_invalid' }));
  }
  const { data, account_id } = res.token;
  const back: Return = { redirect_after: data.redirect_after, link_token: data.link_enc ? await deps.cipher.decrypt(data.link_enc) : undefined };
  try {
    const accounts = JSON.parse(await deps.cipher.decrypt(data.accounts_enc)) as OAuthAccount[];
    const chosen = accounts.find((a) => a.id === input.account);
    if (!chosen) throw new BadRequestError('Choose one of the listed accounts: start the connection again', { code: 'oauth_pick_invalid' });
    const tokens = JSON.parse(await deps.cipher.decrypt(data.tokens_enc)) as TokenSet;
    return await connected(deps, account_id, await brandOf(deps, account_id, data.brand_id), name, tokens, chosen, back);
  } catch (err) {
    if (err instanceof AppError) return failedOutcome(name, err, back);
    throw err;
  }
}

async function brandOf(deps: Pick<Deps, 'brands'>, accountId: string, brandId: string): Promise<Brand> {
  const brand = await deps.brands.get(accountId, brandId);
  if (!brand) throw new NotFoundError('The brand this connection was meant for no longer exists', { code: 'brand_not_found' });
  return brand;
}

async function connected(deps: Pick<Deps, 'cipher' | 'clock' | 'connections'> & Partial<Pick<Deps, 'oauth' | 'settings'>>, accountId: string, brand: Brand, platform: PlatformName, tokens: TokenSet, account: OAuthAccount, back: Return): Promise<CallbackOutcome> {
  const connection = await saveOAuthConnection(deps, accountId, brand, platform, tokens, account);
  return { kind: 'connected', platform, brand: { id: brand.id, name: brand.name }, connection: connectionView(connection), ...back };
}

/**
 * Saves the brand's connection for an OAuth network: the account's handle and label, its fields (page id, page
 * token, …) and the tokens, each envelope-encrypted and never returned by any endpoint.
 * A reconnect of the same network account (same network id; connections saved before that id was kept: same
 * handle) replaces the credentials in place: same connection id, and a sign-in that brings no refresh token keeps
 * the stored one. Another account of that network replaces the brand's connection with a new id.
 */
export async function saveOAuthConnection(deps: Pick<Deps, 'cipher' | 'clock' | 'connections'> & Partial<Pick<Deps, 'oauth' | 'settings'>>, accountId: string, brand: Brand, platform: PlatformName, tokens: TokenSet, account: OAuthAccount): Promise<Connection> {
  const now = deps.clock.now();
  const ctx = { account_id: accountId, brand_id: brand.id, platform };
  const earlier = await deps.connections.get(accountId, brand.id, platform);
  const same = earlier && (earlier.network_account_id !== undefined ? earlier.network_account_id === account.id : earlier.handle === account.handle) ? earlier : undefined;
  let stored = tokens;
  if (same?.tokens_enc && !tokens.refresh_token) {
    const before = JSON.parse(await deps.cipher.decrypt(same.tokens_enc, connectionContext(same, 'tokens'))) as TokenSet;
    if (before.refresh_token) stored = { ...tokens, refresh_token: before.refresh_token, refresh_expires_at: before.refresh_expires_at };
  }
  const renewable = !!deps.oauth?.providers[platform]?.refresh;
  const plan = sweepPlan(stored, renewable, now, noticeMs(deps.settings ?? {}));
  const connection: Connection = {
    id: same?.id ?? newId('con', now), account_id: accountId, brand_id: brand.id, platform,
    handle: account.handle, label: labelOf(brand.name, account.handle, platform), status: 'active',
    connected_at: new Date(now).toISOString(), network_account_id: account.id,
    credentials_enc: await deps.cipher.encrypt(JSON.stringify(account.credentials), connectionContext(ctx, 'credentials')),
    tokens_enc: await deps.cipher.encrypt(JSON.stringify(stored), connectionContext(ctx, 'tokens')),
    ...(stored.expires_at !== undefined ? { token_expires_at: stored.expires_at } : {}),
    ...(plan.lapses_at !== undefined ? { lapses_at: plan.lapses_at } : {}),
    ...(plan.sweep_at !== undefined ? { sweep_at: plan.sweep_at } : {}),
  };
  await deps.connections.put(connection);
  return connection;
}
