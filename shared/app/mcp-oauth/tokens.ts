import { KEY_SCOPES, type KeyScope } from '../../domain/api-key';
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { AiApp, OAuthTokenRecord } from '../../ports/mcp-oauth';
import type { Actor } from '../auth';
import type { PublishContext } from '../../ports/publishing';
import { loadPublishingAccount } from '../publishing-account';
import { sha256Hex } from '../../domain/api-key';
import { UnauthorizedError } from '../../domain/errors';
import {
  ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_TTL_SECONDS, OAuthProtocolError, REFRESH_TOKEN_PREFIX, REFRESH_TOKEN_TTL_SECONDS,
  mcpResourceOf, newSecret, resourceMetadataUrlOf,
} from './authorization-server';
import { trimBase } from '../../domain/values';

/**
 * Token requests (OAuth 2.1 §4.1.3 and §4.3), form-encoded. Parameters this server does not use are ignored, as
 * RFC 6749 §3.2 requires.
 */
export const TokenRequest = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'), code: z.string().min(1).max(200), code_verifier: z.string().min(43).max(128),
    client_id: z.string().min(1).max(2000), redirect_uri: z.string().max(2000).optional(), resource: z.string().max(2000).optional(),
  }),
  z.object({
    grant_type: z.literal('refresh_token'), refresh_token: z.string().min(1).max(200), client_id: z.string().min(1).max(2000),
    resource: z.string().max(2000).optional(), scope: z.string().max(200).optional(),
  }),
]);

const invalidGrant = (why: string) => new OAuthProtocolError(400, 'invalid_grant', why);
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The grant a code starts: every token issued from the code, and by refreshing them, belongs to it. */
const grantOfCode = (codeHash: string) => sha256Hex(`grant:${codeHash}`);

/** Revokes a grant as a whole: its access and refresh tokens stop working at once (kept past their longest life). */
async function revokeGrant(deps: Pick<Deps, 'mcpOAuth' | 'clock'>, grantId: string) {
  const now = deps.clock.now();
  await deps.mcpOAuth.revokeGrant(grantId, new Date(now).toISOString(), Math.floor(now / 1000) + REFRESH_TOKEN_TTL_SECONDS + 86_400);
}

async function issue(deps: Pick<Deps, 'mcpOAuth' | 'clock'>, from: Pick<OAuthTokenRecord, 'app_id' | 'account_id' | 'client_id' | 'resource' | 'scope'>, grantId: string) {
  const base = { app_id: from.app_id, account_id: from.account_id, client_id: from.client_id, resource: from.resource, scope: from.scope, grant_id: grantId };
  const now = deps.clock.now();
  const nowSec = Math.floor(now / 1000);
  const access = newSecret(ACCESS_TOKEN_PREFIX);
  const refresh = newSecret(REFRESH_TOKEN_PREFIX);
  const created_at = new Date(now).toISOString();
  await deps.mcpOAuth.putToken({ ...base, hash: sha256Hex(access), kind: 'access', expires_at: nowSec + ACCESS_TOKEN_TTL_SECONDS, created_at });
  await deps.mcpOAuth.putToken({ ...base, hash: sha256Hex(refresh), kind: 'refresh', expires_at: nowSec + REFRESH_TOKEN_TTL_SECONDS, created_at });
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh, scope: base.scope };
}

async function liveApp(deps: Pick<Deps, 'mcpOAuth'>, accountId: string, appId: string): Promise<AiApp | undefined> {
  const app = await deps.mcpOAuth.getApp(accountId, appId);
  return app && !app.revoked_at ? app : undefined;
}

/**
 * The token endpoint: a code (used once, PKCE S256 verified, same client, redirect URI and resource) or a refresh
 * token (rotated: used once, a new pair each time) for a 1-hour access token and a 30-day refresh token.
 * Replays revoke (RFC 9700 §2.2.2, §4.14): a code presented again revokes the grant its first use started, and a
 * rotated refresh token presented again revokes its whole grant, access tokens included.
 */
export async function tokenRequest(deps: Pick<Deps, 'mcpOAuth' | 'clock' | 'settings'>, form: Record<string, string>) {
  const parsed = TokenRequest.safeParse(form);
  if (!parsed.success) {
    const unsupported = form.grant_type !== undefined && !['authorization_code', 'refresh_token'].includes(form.grant_type);
    if (unsupported) throw new OAuthProtocolError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    throw new OAuthProtocolError(400, 'invalid_request', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const req = parsed.data;
  const resource = mcpResourceOf(deps);
  if (req.resource !== undefined && trimBase(req.resource) !== resource) {
    throw new OAuthProtocolError(400, 'invalid_target', `Tokens are issued only for this MCP server: resource=${resource}`);
  }
  const now = deps.clock.now();
  const at = new Date(now).toISOString();
  if (req.grant_type === 'authorization_code') {
    const codeHash = sha256Hex(req.code);
    const code = await deps.mcpOAuth.redeemCode(codeHash, Math.floor(now / 1000), at);
    if (!code) {
      if ((await deps.mcpOAuth.getCode(codeHash))?.used_at) await revokeGrant(deps, grantOfCode(codeHash));
      throw invalidGrant('The code is unknown, expired or already used');
    }
    if (code.client_id !== req.client_id) throw invalidGrant('The code was issued to another client');
    if (req.redirect_uri !== undefined && req.redirect_uri !== code.redirect_uri) throw invalidGrant('redirect_uri differs from the authorization request');
    if (s256(req.code_verifier) !== code.code_challenge) throw invalidGrant('code_verifier does not match the code_challenge (PKCE S256)');
    if (!(await liveApp(deps, code.account_id, code.app_id))) throw invalidGrant('The app was revoked');
    const grantId = grantOfCode(codeHash);
    // a replay that raced this redemption revoked the grant before anything was issued
    if (await deps.mcpOAuth.isGrantRevoked(grantId)) throw invalidGrant('The code was presented twice; its grant is revoked');
    return issue(deps, code, grantId);
  }
  const refreshHash = sha256Hex(req.refresh_token);
  const old = await deps.mcpOAuth.useRefreshToken(refreshHash, Math.floor(now / 1000), at);
  if (!old) {
    const seen = await deps.mcpOAuth.getToken(refreshHash);
    if (seen?.kind === 'refresh' && seen.used_at) {
      // a rotated refresh token used again: someone holds a copy; the whole grant goes (older tokens: the app)
      if (seen.grant_id) await revokeGrant(deps, seen.grant_id);
      else await deps.mcpOAuth.revokeApp(seen.account_id, seen.app_id, at);
    }
    throw invalidGrant('The refresh token is unknown, expired, revoked or already used');
  }
  if (old.client_id !== req.client_id) throw invalidGrant('The refresh token was issued to another client');
  if (!(await liveApp(deps, old.account_id, old.app_id))) throw invalidGrant('The app was revoked');
  const grantId = old.grant_id ?? grantOfCode(old.hash);
  if (await deps.mcpOAuth.isGrantRevoked(grantId)) throw invalidGrant('The grant of this refresh token was revoked');
  return issue(deps, old, grantId);
}

/**
 * Revocation (RFC 7009): the token stops working at once; revoking a refresh token revokes its grant, the access
 * tokens issued with it included (RFC 7009 §2.1). Unknown tokens are answered the same (200).
 */
export async function revokeToken(deps: Pick<Deps, 'mcpOAuth' | 'clock'>, form: Record<string, string>) {
  const token = form.token;
  if (!token) throw new OAuthProtocolError(400, 'invalid_request', 'token is required');
  const record = await deps.mcpOAuth.getToken(sha256Hex(token));
  if (record && (!form.client_id || form.client_id === record.client_id)) {
    await deps.mcpOAuth.revokeToken(record.hash, new Date(deps.clock.now()).toISOString());
    if (record.kind === 'refresh' && record.grant_id) await revokeGrant(deps, record.grant_id);
  }
  return {};
}

/** A 401 of the MCP endpoint: names the protected resource metadata (RFC 9728 §5.1) so that clients can sign in. */
export function mcpUnauthorized(deps: Pick<Deps, 'settings'>, message: string, tokenError?: 'invalid_token'): UnauthorizedError {
  const params = [`resource_metadata="${resourceMetadataUrlOf(deps)}"`, ...(tokenError ? [`error="${tokenError}"`, `error_description="${message.replace(/"/g, "'")}"`] : [])];
  return new UnauthorizedError(message, { headers: { 'www-authenticate': `Bearer ${params.join(', ')}` } });
}

export interface AppPrincipal {
  account: Account;
  actor: Actor;
  /** An AI app holds every scope; its guardrails (kind `app`) limit what it does. */
  scopes: KeyScope[];
  app: AiApp;
  /** With `publishing`: what publishing needs, read in the same query as the account. */
  context?: PublishContext;
}

/**
 * An OAuth access token at the MCP endpoint: known, live, not revoked, bound to this server's MCP URL (a token for
 * another resource is refused), and its app not revoked; the caller is the app (actor kind `app`).
 */
export async function authenticateAccessToken(
  deps: Pick<Deps, 'mcpOAuth' | 'accounts' | 'clock' | 'settings'> & Partial<Pick<Deps, 'publishContext'>>, token: string, opts: { publishing?: boolean } = {},
): Promise<AppPrincipal> {
  const record = await deps.mcpOAuth.getToken(sha256Hex(token));
  if (!record || record.kind !== 'access') throw mcpUnauthorized(deps, 'The access token is not valid', 'invalid_token');
  if (record.revoked_at) throw mcpUnauthorized(deps, 'The access token was revoked', 'invalid_token');
  if (record.expires_at * 1000 <= deps.clock.now()) throw mcpUnauthorized(deps, 'The access token has expired', 'invalid_token');
  if (record.resource !== mcpResourceOf(deps)) throw mcpUnauthorized(deps, 'The access token is for another resource', 'invalid_token');
  if (record.grant_id && (await deps.mcpOAuth.isGrantRevoked(record.grant_id))) throw mcpUnauthorized(deps, 'The access token was revoked', 'invalid_token');
  const app = await liveApp(deps, record.account_id, record.app_id);
  if (!app) throw mcpUnauthorized(deps, 'The app was revoked by the account owner', 'invalid_token');
  const actor: Actor = { kind: 'app', id: app.id };
  const publishContext = opts.publishing ? deps.publishContext : undefined;
  const loaded = publishContext ? await loadPublishingAccount({ accounts: deps.accounts, clock: deps.clock, publishContext }, record.account_id, actor) : undefined;
  const account = loaded ? loaded.account : await deps.accounts.get(record.account_id);
  if (!account) throw mcpUnauthorized(deps, 'The access token is not valid', 'invalid_token');
  return { account, actor, scopes: [...KEY_SCOPES], app, ...(loaded ? { context: loaded.context } : {}) };
}
