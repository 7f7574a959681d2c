import type { Deps } from './deps';
import type { ApiKeyRecord } from '../ports/store';
import { NotFoundError } from '../domain/errors';
import { generateApiKey, keyPrefix, sha256Hex } from '../domain/api-key';
import { isId, newId } from '../domain/ids';

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const view = (k: ApiKeyRecord): KeyView => ({
  id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at,
  expires_at: k.expires_at ?? null, revoked_at: k.revoked_at ?? null,
});

/**
 * Issues a key: generates the secret, stores only its hash, and returns the secret once.
 * expires_in_days (1..3650) sets an expiry; without it the key does not expire.
 */
export async function createApiKey(deps: Pick<Deps, 'keys' | 'clock'>, accountId: string, input: { name?: string; expires_in_days?: number }) {
  const secret = generateApiKey();
  const now = deps.clock.now();
  const record: ApiKeyRecord = {
    id: newId('key', now),
    account_id: accountId,
    name: input.name ?? 'API key',
    prefix: keyPrefix(secret),
    hash: sha256Hex(secret),
    created_at: new Date(now).toISOString(),
    expires_at: input.expires_in_days ? new Date(now + input.expires_in_days * 86_400_000).toISOString() : undefined,
  };
  await deps.keys.create(record);
  return { ...view(record), api_key: secret };
}

/** Lists the account's keys, newest first, with prefixes only. */
export async function listApiKeys(deps: Pick<Deps, 'keys'>, accountId: string): Promise<KeyView[]> {
  const keys = await deps.keys.listByAccount(accountId);
  return keys.sort((a, b) => b.id.localeCompare(a.id)).map(view);
}

/** Revokes a key at once; an id that does not parse, is another account's or is already revoked is 404. */
export async function revokeApiKey(deps: Pick<Deps, 'keys' | 'clock'>, accountId: string, keyId: string) {
  if (!isId('key', keyId)) throw new NotFoundError('No such API key');
  const at = new Date(deps.clock.now()).toISOString();
  if (!(await deps.keys.revoke(accountId, keyId, at))) throw new NotFoundError('No such API key, or it was revoked already');
  return { id: keyId, revoked: true, revoked_at: at };
}
