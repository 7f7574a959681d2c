import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import { AppError, type AppErrorOptions } from '../../domain/errors';
import { trimBase } from '../../domain/values';

/** The one scope: use the MCP tools as the account (what the consent page lists; never approve, never guardrails). */
export const MCP_SCOPE = 'mcp';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const AUTH_CODE_TTL_SECONDS = 300;

export const ACCESS_TOKEN_PREFIX = 'mcp_at_';
export const REFRESH_TOKEN_PREFIX = 'mcp_rt_';

/** The authorization server's issuer: the service's public origin. */
export const issuerOf = (deps: Pick<Deps, 'settings'>) => trimBase(deps.settings.publicBaseUrl);
/** The protected resource (RFC 8707 / RFC 9728): the MCP server's URL; every token is bound to it. */
export const mcpResourceOf = (deps: Pick<Deps, 'settings'>) => `${issuerOf(deps)}/api/mcp`;
export const resourceMetadataUrlOf = (deps: Pick<Deps, 'settings'>) => `${issuerOf(deps)}/.well-known/oauth-protected-resource`;

/** 256 random bits, base64url, behind a prefix that says what the secret is. */
export const newSecret = (prefix: string) => prefix + randomBytes(32).toString('base64url');

/**
 * An OAuth protocol error (RFC 6749 §5.2, RFC 7591 §3.2.2): the body is `{error, error_description}` as OAuth
 * clients expect, not the API's `{error, code}`.
 */
export class OAuthProtocolError extends AppError {
  constructor(status: number, code: string, description: string, options?: AppErrorOptions) {
    super(status, code, description, options);
  }

  override toBody(): Record<string, unknown> {
    return { error: this.code, error_description: this.message };
  }
}

/** RFC 9728: where this resource's authorization server is and how to present tokens. */
export function protectedResourceMetadata(deps: Pick<Deps, 'settings'>) {
  return {
    resource: mcpResourceOf(deps),
    authorization_servers: [issuerOf(deps)],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Social publishing MCP server',
  };
}

/** RFC 8414: the authorization server's endpoints and what it supports (code + PKCE S256, public clients). */
export function authorizationServerMetadata(deps: Pick<Deps, 'settings'>) {
  const issuer = issuerOf(deps);
  return {
    issuer,
    authorization_endpoint: `${issuer}/dashboard/apps/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}
