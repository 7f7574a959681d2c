import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { OAuthClientRecord } from '../../ports/mcp-oauth';
import { sha256Hex } from '../../domain/api-key';
import { newId } from '../../domain/ids';
import { AUTH_CODE_TTL_SECONDS, MCP_SCOPE, issuerOf, mcpResourceOf, newSecret } from './authorization-server';
import { resolveClient } from './clients';
import type { AuthorizeQuery } from '../../api/mcp-oauth-schemas';
import { trimBase } from '../../domain/values';

/**
 * A request refused before the owner consented: shown as a page, never redirected (RFC 9700 §4.11.2: an error
 * redirect to a client nobody allowed would make this server an open redirector). `error` is the OAuth error code.
 */
export class UnredirectableAuthorizeError extends Error {
  constructor(message: string, readonly error = 'invalid_request') { super(message); }
}

export type AuthorizeCheck = { ok: true; client: OAuthClientRecord; request: AuthorizeQuery & { redirect_uri: string; code_challenge: string }; resource: string };

/** The client's redirect URI with the response parameters (and `iss`, RFC 9207). */
function back(deps: Pick<Deps, 'settings'>, redirectUri: string, params: Record<string, string | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: issuerOf(deps) })) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks an authorization request: the client and its redirect URI, then the response type, PKCE S256, scope and
 * resource. Every failure is a page (UnredirectableAuthorizeError), never a redirect: until the owner has consented,
 * nothing is sent to the app's redirect URI. Only the owner's own answer (a code, or access_denied) goes back.
 */
export async function checkAuthorizeRequest(deps: Pick<Deps, 'mcpOAuth' | 'media' | 'clock' | 'settings'>, q: AuthorizeQuery): Promise<AuthorizeCheck> {
  const client = await resolveClient(deps, q.client_id);
  if (!client) throw new UnredirectableAuthorizeError('This app is not registered (unknown client_id), or its client metadata document could not be read.');
  const redirectUri = q.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
    throw new UnredirectableAuthorizeError('The redirect_uri is not one the app registered.');
  }
  const fail = (error: string, description: string): never => { throw new UnredirectableAuthorizeError(description, error); };
  if (q.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  if (q.code_challenge_method !== 'S256' || !q.code_challenge || !PKCE_CHALLENGE.test(q.code_challenge)) {
    return fail('invalid_request', 'PKCE is required: code_challenge (S256 of the verifier, base64url) with code_challenge_method=S256');
  }
  if (q.scope !== undefined && q.scope.split(' ').some((s) => s !== '' && s !== MCP_SCOPE)) return fail('invalid_scope', `The only scope is ${MCP_SCOPE}`);
  const resource = mcpResourceOf(deps);
  if (q.resource !== undefined && trimBase(q.resource) !== resource) {
    return fail('invalid_target', `Tokens are issued only for this MCP server: resource=${resource}`);
  }
  return { ok: true, client, request: { ...q, redirect_uri: redirectUri, code_challenge: q.code_challenge }, resource };
}

/**
 * The owner's answer on the consent page. Deny: back to the app with access_denied. Allow: the account's AI app for
 * this client (made once) and a single-use code for 5 minutes, stored by hash, bound to the PKCE challenge, the
 * redirect URI and the resource.
 */
export async function decideAuthorization(
  deps: Pick<Deps, 'guardrails' | 'mcpOAuth' | 'media' | 'clock' | 'settings'>, account: Account, q: AuthorizeQuery, allow: boolean,
): Promise<string> {
  const { client, request, resource } = await checkAuthorizeRequest(deps, q);
  if (!allow) return back(deps, request.redirect_uri, { error: 'access_denied', error_description: 'The account owner did not allow this app', state: request.state });
  const now = deps.clock.now();
  const app = await deps.mcpOAuth.appFor({
    id: newId('app', now), account_id: account.id, client_id: client.client_id, client_name: client.client_name,
    redirect_host: new URL(request.redirect_uri).host || new URL(request.redirect_uri).protocol, created_at: new Date(now).toISOString(),
  });
  await keepGuardrails(deps, account.id, client.client_id, app.id);
  const code = newSecret('mcp_code_');
  await deps.mcpOAuth.putCode({
    hash: sha256Hex(code), client_id: client.client_id, app_id: app.id, account_id: account.id, redirect_uri: request.redirect_uri,
    code_challenge: request.code_challenge, resource, scope: MCP_SCOPE, expires_at: Math.floor(now / 1000) + AUTH_CODE_TTL_SECONDS,
  });
  return back(deps, request.redirect_uri, { code, state: request.state });
}

/**
 * An app the owner revoked and now allows again is a new app: it gets the guardrails the last revoked app of the same
 * client had (the consent page says so), never a fresh start with no limits. Limits already set on it are kept.
 */
export async function keepGuardrails(deps: Pick<Deps, 'guardrails' | 'mcpOAuth' | 'clock'>, accountId: string, clientId: string, appId: string): Promise<void> {
  if (await deps.guardrails.get(accountId, 'app', appId)) return;
  const earlier = await earlierGuardrails(deps, accountId, clientId, appId);
  if (earlier) await deps.guardrails.put({ ...earlier, id: appId, updated_at: new Date(deps.clock.now()).toISOString() });
}

/** The guardrails of the newest earlier (revoked) app of this client on the account, if it had any. */
export async function earlierGuardrails(deps: Pick<Deps, 'guardrails' | 'mcpOAuth'>, accountId: string, clientId: string, appId?: string) {
  const earlier = (await deps.mcpOAuth.listApps(accountId)).filter((a) => a.client_id === clientId && a.id !== appId && a.revoked_at);
  for (const a of earlier) {
    const g = await deps.guardrails.get(accountId, 'app', a.id);
    if (g) return g;
  }
  return undefined;
}
