import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { PublishContext } from '../../ports/publishing';
import { authenticate, type Actor } from '../auth';
import type { KeyScope } from '../../domain/api-key';
import { AppError, UnauthorizedError } from '../../domain/errors';
import { ACCESS_TOKEN_PREFIX } from './authorization-server';
import { authenticateAccessToken, mcpUnauthorized } from './tokens';

/** Who calls the MCP server: the account and the actor (an API key, or an AI app signed in with OAuth). */
export interface McpCaller {
  account: Account;
  actor: Actor;
  /** What the caller may do: an API key's scopes; an AI app holds all three (its guardrails limit it). */
  scopes: KeyScope[];
  /** What publishing needs (brands, connections, guardrails, approval rules), read with the account when asked for. */
  context?: PublishContext;
}

/**
 * The MCP endpoint's authentication: a bearer API key (as on the REST API) or an OAuth access token. Every 401
 * carries `WWW-Authenticate: Bearer resource_metadata=…` so that an MCP client can discover how to sign in. With
 * `publishing` (a call of a tool that publishes) the caller's account is read in the same query as what publishing
 * needs, as the REST API's publish routes read it (auth.ts), instead of one read for each.
 */
export async function authenticateMcp(
  deps: Pick<Deps, 'keys' | 'accounts' | 'clock' | 'mcpOAuth' | 'settings'> & Partial<Pick<Deps, 'publishContext'>>,
  authorization: string | undefined, opts: { publishing?: boolean } = {},
): Promise<McpCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw mcpUnauthorized(deps, 'Authenticate: send Authorization: Bearer with an API key (svc_live_…) or an OAuth access token');
  const presented = match[1]!;
  if (presented.startsWith(ACCESS_TOKEN_PREFIX)) return authenticateAccessToken(deps, presented, opts);
  try {
    const p = await authenticate(deps, authorization, opts);
    return { account: p.account, actor: p.actor, scopes: p.scopes, ...(p.context ? { context: p.context } : {}) };
  } catch (err) {
    if (err instanceof UnauthorizedError) throw mcpUnauthorized(deps, err.message, 'invalid_token');
    if (err instanceof AppError) throw err;
    throw err;
  }
}
