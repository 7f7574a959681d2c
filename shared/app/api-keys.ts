import type { Deps } from './deps';
import type { ApiKeyRecord } from '../ports/store';
import type { Principal } from './auth';
import { ForbiddenError, NotFoundError } from '../domain/errors';
import { generateApiKey, keyPrefix, scopesOf, sha256Hex, KEY_SCOPES, type KeyScope } from '../domain/api-key';
import { isId, newId } from '../domain/ids';
import { limitsAnything } from '../domain/guardrails';
import { loadGuardrails } from './guardrails/enforce';

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  scopes: KeyScope[];
}

const view = (k: ApiKeyRecord): KeyView => ({
  id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at,
  expires_at: k.expires_at ?? null, revoked_at: k.revoked_at ?? null, scopes: scopesOf(k),
});

/** The key that makes the request; absent when the account itself acts (signup confirmation issues the first key). */
type Issuer = Pick<Principal, 'key' | 'scopes'> | undefined;

function refuseWider(issuer: Issuer, scopes: readonly KeyScope[]) {
  const missing = issuer ? scopes.find((s) => !issuer.scopes.includes(s)) : undefined;
  if (missing) {
    throw new ForbiddenError(`A key can only create or revoke keys no wider than itself: this key lacks the ${missing} scope`, {
      code: 'key_scope', details: { scope: missing },
    });
  }
}

/**
 * Issues a key: generates the secret, stores only its hash, and returns the secret once.
 * The new key is never wider than the issuing key: its scopes (default: the issuer's) must be among the issuer's
 * (403 key_scope), and it expires no later than the issuer (403 key_expiry when expires_in_days asks for later;
 * without expires_in_days it expires with the issuer, or never when the issuer never expires).
 * A key with guardrails in force (its own, or those of a key above it) mints no key at all (403 key_guardrails); a
 * key minted by a key records the keys above it, whose guardrails bind it too (decisions.md "Authority").
 */
export async function createApiKey(
  deps: Pick<Deps, 'keys' | 'clock' | 'guardrails'>, accountId: string,
  input: { name?: string; expires_in_days?: number; scopes?: KeyScope[] }, issuer?: Issuer,
) {
  const scopes = KEY_SCOPES.filter((s) => (input.scopes ?? issuer?.scopes ?? KEY_SCOPES).includes(s));
  refuseWider(issuer, scopes);
  if (issuer && limitsAnything(await loadGuardrails(deps, accountId, { kind: 'key', id: issuer.key.id, above: issuer.key.above }))) {
    throw new ForbiddenError('A key with guardrails (its own or those of the key that made it) cannot create keys: create them from the dashboard', { code: 'key_guardrails' });
  }
  const now = deps.clock.now();
  const limit = issuer?.key.expires_at;
  const expiresAt = input.expires_in_days ? new Date(now + input.expires_in_days * 86_400_000).toISOString() : limit;
  if (limit && expiresAt && Date.parse(expiresAt) > Date.parse(limit)) {
    throw new ForbiddenError(`A key can only create keys that expire no later than itself (${limit})`, { code: 'key_expiry', details: { expires_at: limit } });
  }
  const secret = generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('key', now),
    account_id: accountId,
    name: input.name ?? 'API key',
    prefix: keyPrefix(secret),
    hash: sha256Hex(secret),
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
    scopes,
    ...(issuer ? { above: [issuer.key.id, ...(issuer.key.above ?? [])] } : {}),
  };
  await deps.keys.create(record);
  return { ...view(record), api_key: secret };
}

/** Lists the account's keys, newest first, with prefixes only. */
export async function listApiKeys(deps: Pick<Deps, 'keys'>, accountId: string): Promise<KeyView[]> {
  const keys = await deps.keys.listByAccount(accountId);
  return keys.sort((a, b) => b.id.localeCompare(a.id)).map(view);
}

/**
 * Revokes a key at once; an id that does not parse, is another account's or is already revoked is 404. A key may
 * revoke itself, or another key whose scopes are all among its own (403 key_scope otherwise).
 */
export async function revokeApiKey(deps: Pick<Deps, 'keys' | 'clock'>, accountId: string, keyId: string, issuer?: Issuer) {
  if (!isId('key', keyId)) throw new NotFoundError('No such API key');
  if (issuer && issuer.key.id !== keyId) {
    const target = (await deps.keys.listByAccount(accountId)).find((k) => k.id === keyId && !k.revoked_at);
    if (!target) throw new NotFoundError('No such API key, or it was revoked already');
    refuseWider(issuer, scopesOf(target));
  }
  const at = new Date(deps.clock.now()).toISOString();
  if (!(await deps.keys.revoke(accountId, keyId, at))) throw new NotFoundError('No such API key, or it was revoked already');
  return { id: keyId, revoked: true, revoked_at: at };
}
