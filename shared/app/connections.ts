import type { Deps } from './deps';
import type { Account } from '../ports/store';
import type { Connection } from '../ports/publishing';
import { AppError, BadRequestError, NotFoundError, RateLimitedError, ServiceUnavailableError } from '../domain/errors';
import { isId, newId } from '../domain/ids';
import { isPlatformName, platform as platformInfo, type PlatformName } from '../domain/platforms';
import { explain } from '../domain/result-codes';
import type { Failure } from '../ports/networks';
import { UnsafeTargetError } from '../ports/media-gateway';
import { labelOf } from '../domain/event-refs';
import { networkContext } from './network-context';
import { freshCredentials, signInLost, type FreshCredentialsDeps } from './oauth/credentials';
import { connectionContext } from './security/contexts';
import { URL_FIELDS } from './security/credential-targets';
import { connectionView, healthOf, noticeMs } from './oauth/health';
import { targetBrand, targetBrandFor } from './guardrails/target-brand';
import { checkBrandAllowed, loadGuardrails } from './guardrails/enforce';
import type { Actor } from './auth';

/** What connecting a credential network reaches: the brand, the network's verify call and the encrypted connection. */
export type ConnectDeps = Pick<Deps, 'brands' | 'cipher' | 'clock' | 'connections' | 'guardrails' | 'media' | 'networks' | 'pace' | 'settings'>;
/** What a health check reaches: the connection's fresh credentials (renewed or marked lost) and the network. */
export type ConnectionHealthDeps = FreshCredentialsDeps & Pick<Deps, 'networks'>;

const withHealth = (deps: Pick<Deps, 'clock' | 'settings'>) => {
  const now = deps.clock.now();
  const notice = noticeMs(deps.settings);
  return (c: Connection) => connectionView(c, healthOf(c, now, notice));
};

function credentialError(code: 'invalid_credentials' | 'network_unavailable', message: string, platform: string, status = 400): AppError {
  const options = { code, details: { platform, ...explain(code) } };
  return status === 503 ? new ServiceUnavailableError(message, options) : new BadRequestError(message, options);
}

/** Maps a failed verification to the connect answer: bad credentials 400, network waits 429, outages 503. */
function verifyFailure(platform: PlatformName, f: Failure): AppError {
  if (f.kind === 'rate_limited') return new RateLimitedError(f.retry_after, `${platform} asked to wait before checking again: ${f.error}`);
  if (f.kind === 'timeout' || f.kind === 'transient') return credentialError('network_unavailable', `${platform} could not be reached: ${f.error}`, platform, 503);
  return credentialError('invalid_credentials', `${platform} refused the credentials: ${f.error}`, platform);
}

function normaliseUrl(value: string): string {
  const v = value.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`;
}

/**
 * Connects a credential network (POST /api/connect).
 * 1. Known credential network (OAuth networks: 400 oauth_platform), target brand.
 * 2. Exactly the fields of spec §2.1: required present, optional allowed, nothing else.
 * 3. URL fields must point at public addresses (decisions.md).
 * 4. Prove the credentials against the network (adapter.verify); nothing is saved on failure.
 * 5. Encrypt the normalised credentials and save the brand's connection (replacing an earlier one).
 */
export async function connect(deps: ConnectDeps, account: Account, input: { platform: string; credentials: Record<string, unknown>; brand_id?: string }, actor?: Actor) {
  if (!isPlatformName(input.platform)) throw new BadRequestError(`Unknown network: ${input.platform}; GET /api/platforms lists them`, { details: { platforms: [input.platform] } });
  const platform = input.platform;
  const info = platformInfo(platform);
  if (info.oauth) {
    throw new BadRequestError(`${platform} connects through OAuth: use POST /api/oauth/${platform}/url or a connect link`, { code: 'oauth_platform', details: { platform, oauth_url: `/api/oauth/${platform}/url`, ...explain('oauth_platform') }, });
  }
  const brand = await targetBrandFor(deps, account, input.brand_id, actor);
  const allowed = [...info.fields, ...(info.optional_fields ?? [])];
  const extra = Object.keys(input.credentials).filter((k) => !allowed.includes(k));
  const missing = info.fields.filter((f) => typeof input.credentials[f] !== 'string' || (input.credentials[f] as string).trim() === '');
  const notText = allowed.filter((f) => input.credentials[f] !== undefined && typeof input.credentials[f] !== 'string');
  if (missing.length || extra.length || notText.length) {
    throw new BadRequestError(`${platform} needs ${info.fields.join(', ')}${info.optional_fields ? ` (optional: ${info.optional_fields.join(', ')})` : ''}`, {
      code: 'invalid_credentials', details: { platform, missing, unknown: extra, not_text: notText, ...explain('invalid_credentials') },
    });
  }
  const credentials: Record<string, string> = {};
  for (const f of allowed) if (typeof input.credentials[f] === 'string') credentials[f] = (input.credentials[f] as string).trim();
  for (const field of URL_FIELDS[platform] ?? []) {
    credentials[field] = normaliseUrl(credentials[field]);
    try {
      await deps.media.checkTarget(credentials[field]);
    } catch (err) {
      if (err instanceof UnsafeTargetError) throw credentialError('invalid_credentials', `${field} is not a public https address: ${err.message}`, platform);
      throw err;
    }
  }

  const adapter = deps.networks[platform];
  if (!adapter) throw new ServiceUnavailableError(`${platform} is not available in this deployment`);
  const verified = await adapter.verify(networkContext(deps, credentials));
  if (!verified.ok) throw verifyFailure(platform, verified);

  const now = deps.clock.now();
  // re-entering the credentials of the same network account keeps the connection's id (a reconnect, not a new one)
  const earlier = await deps.connections.get(account.id, brand.id, platform);
  const connection: Connection = {
    id: earlier && earlier.handle === verified.handle ? earlier.id : newId('con', now), account_id: account.id, brand_id: brand.id, platform,
    handle: verified.handle, label: labelOf(brand.name, verified.handle, platform), status: 'active',
    connected_at: new Date(now).toISOString(),
    credentials_enc: await deps.cipher.encrypt(JSON.stringify(verified.credentials), connectionContext({ account_id: account.id, brand_id: brand.id, platform }, 'credentials')),
  };
  await deps.connections.put(connection);
  return { ok: true, connection: connectionView(connection) };
}

/** GET /api/connections: what is connected, grouped per brand. */
export async function listConnections(deps: Pick<Deps, 'brands' | 'clock' | 'connections' | 'settings'>, accountId: string) {
  const [brands, connections] = await Promise.all([deps.brands.list(accountId), deps.connections.listByAccount(accountId)]);
  const view = withHealth(deps);
  return {
    connections: connections.map(view),
    brands: brands.map((b) => ({ id: b.id, name: b.name, connections: connections.filter((c) => c.brand_id === b.id).map(view) })),
  };
}

/** DELETE /api/connections/{id}: a key or AI app limited to some brands removes only their connections (403 brand_not_allowed). */
export async function disconnect(deps: Pick<Deps, 'connections' | 'guardrails'>, accountId: string, connectionId: string, actor?: Actor) {
  if (!isId('con', connectionId)) throw new NotFoundError('No such connection');
  const guard = actor ? await loadGuardrails(deps, accountId, actor) : undefined;
  if (guard?.allowed_brands) {
    const target = (await deps.connections.listByAccount(accountId)).find((c) => c.id === connectionId);
    if (target) checkBrandAllowed(guard, target.brand_id);
  }
  if (!(await deps.connections.delete(accountId, connectionId))) throw new NotFoundError('No such connection');
  return { id: connectionId, deleted: true };
}

/** GET /api/connect/{platform}/health: checks the stored credentials again and updates the connection's status. */
export async function connectionHealth(deps: ConnectionHealthDeps, account: Account, platformName: string, brandId?: string) {
  if (!isPlatformName(platformName)) throw new NotFoundError(`Unknown network: ${platformName}`);
  const brand = await targetBrand(deps, account, brandId);
  const connection = await deps.connections.get(account.id, brand.id, platformName);
  if (!connection) throw new NotFoundError(`${platformName} is not connected in this brand`, { code: 'not_connected' });
  const adapter = deps.networks[platformName];
  const checked_at = new Date(deps.clock.now()).toISOString();
  const base = { platform: platformName, brand_id: brand.id, connection_id: connection.id, handle: connection.handle, checked_at };
  if (!adapter) return { ...base, ok: false, status: connection.status, error: 'This network cannot be checked in this deployment' };
  // OAuth connections renew their tokens first (a lost grant marks the connection and records the event)
  const fresh = await freshCredentials(deps, connection);
  const res = fresh.ok ? await adapter.verify(networkContext(deps, fresh.credentials)) : fresh.failure;
  const stored = async () => (await deps.connections.get(account.id, brand.id, platformName)) ?? connection;
  const health = async () => healthOf(await stored(), deps.clock.now(), noticeMs(deps.settings));
  if (res.ok) {
    if (connection.status !== 'active') await deps.connections.setStatus(account.id, brand.id, platformName, 'active');
    const now = await stored();
    if (now.network_down_since) await deps.connections.saveHealth(now, { sweep_at: now.sweep_at, lapses_at: now.lapses_at });
    return { ...base, ok: true, status: 'active' as const, health: await health() };
  }
  if (res.kind === 'reauth' || res.kind === 'rejected') {
    // marks the connection once and records connection.reauth_required with a fresh connect link
    if (connection.status === 'active') await signInLost(deps, connection, res.error);
    return { ...base, ok: false, status: 'reauth_required' as const, code: 'reauth_required', error: res.error, ...explain('reauth_required'), health: { state: 'reauth_required' as const } };
  }
  // the network could not be reached: the connection shows network_down until a check or renewal succeeds
  const now = await stored();
  if (now.id === connection.id && now.status === 'active') {
    await deps.connections.saveHealth(now, { sweep_at: now.sweep_at, lapses_at: now.lapses_at, network_down_since: now.network_down_since ?? checked_at, network_error: res.error.slice(0, 500) });
  }
  return { ...base, ok: false, status: connection.status, code: 'network_unavailable', error: res.error, ...explain('network_unavailable'), health: await health() };
}
