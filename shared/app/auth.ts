import type { Deps } from './deps';
import type { Account, ApiKeyRecord } from '../ports/store';
import type { PublishContext } from '../ports/publishing';
import { loadPublishingAccount } from './publishing-account';
import { ForbiddenError, UnauthorizedError } from '../domain/errors';
import { isWellFormedApiKey, scopesOf, sha256Hex, type KeyScope } from '../domain/api-key';

/** Who acts for the account: an API key, or (MCP) an AI app signed in by OAuth. Guardrails are kept per actor. */
export interface Actor {
  kind: 'key' | 'app';
  id: string;
  /** A key minted by a key: the keys above it, nearest first; their guardrails bind it too (domain/guardrails.ts). */
  above?: string[];
}

export interface Principal {
  account: Account;
  key: ApiKeyRecord;
  /** What the key may do (spec §5.3); keys issued before scopes existed hold all three. */
  scopes: KeyScope[];
  /** For API keys `{kind: 'key', id: key.id}`; guardrails are looked up by the actor. */
  actor: Actor;
  /** Routes that publish: the account's brands, connections, guardrails and approval rules, read with the account. */
  context?: PublishContext;
}

/**
 * Authenticates a bearer API key.
 * 1. The header must be `Bearer svc_live_…` of the right shape (401 otherwise).
 * 2. The key's SHA-256 is looked up with a strongly consistent read (revocation is effective at once).
 * 3. Unknown, revoked or expired keys are 401; an account whose email is not verified is 403.
 * With `publishing` (routes of the publish scope) the account is read in the same query as what publishing needs
 * (PublishContextStore); when a plan change has come due it is read again through AccountStore.get, which applies it.
 */
export async function authenticate(deps: Pick<Deps, 'keys' | 'accounts' | 'clock'> & Partial<Pick<Deps, 'publishContext'>>, authorization: string | undefined, opts: { publishing?: boolean } = {}): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new UnauthorizedError();
  const presented = match[1];
  if (!isWellFormedApiKey(presented)) throw new UnauthorizedError('The API key is malformed: keys look like svc_live_ followed by 40 letters and digits');
  const key = await deps.keys.getByHash(sha256Hex(presented));
  if (!key) throw new UnauthorizedError('The API key is not valid');
  if (key.revoked_at) throw new UnauthorizedError('The API key was revoked');
  if (key.expires_at && Date.parse(key.expires_at) <= deps.clock.now()) throw new UnauthorizedError('The API key has expired');
  const actor: Actor = { kind: 'key', id: key.id, ...(key.above?.length ? { above: key.above } : {}) };
  const publishContext = opts.publishing ? deps.publishContext : undefined;
  const loaded = publishContext ? await loadPublishingAccount({ accounts: deps.accounts, clock: deps.clock, publishContext }, key.account_id, actor) : undefined;
  const context = loaded?.context;
  const account = loaded ? loaded.account : await deps.accounts.get(key.account_id);
  if (!account) throw new UnauthorizedError('The API key is not valid');
  if (!account.verified) throw new ForbiddenError('Confirm your email address first: open the link we emailed you', { code: 'email_unverified' });
  return { account, key, scopes: scopesOf(key), actor, ...(context ? { context } : {}) };
}

/** 403 `key_scope` (naming the scope) unless the key holds `scope`. */
export function requireScope(principal: Pick<Principal, 'scopes'>, scope: KeyScope): void {
  if (!principal.scopes.includes(scope)) {
    throw new ForbiddenError(`This API key cannot do that: it needs the ${scope} scope (it has ${principal.scopes.join(', ')})`, {
      code: 'key_scope', details: { scope },
    });
  }
}
