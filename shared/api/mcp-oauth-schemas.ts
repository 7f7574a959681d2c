import * as z from 'zod';

/** Response shapes of the MCP server's OAuth endpoints, for the OpenAPI document. */
export const ProtectedResourceMetadata = z.object({
  resource: z.string(), authorization_servers: z.array(z.string()), scopes_supported: z.array(z.string()), bearer_methods_supported: z.array(z.string()),
}).catchall(z.unknown()).meta({ id: 'ProtectedResourceMetadata' });
export const AuthorizationServerMetadata = z.object({
  issuer: z.string(), authorization_endpoint: z.string(), token_endpoint: z.string(), registration_endpoint: z.string(), revocation_endpoint: z.string(),
  code_challenge_methods_supported: z.array(z.string()),
}).catchall(z.unknown()).meta({ id: 'AuthorizationServerMetadata' });
export const OAuthErrorBody = z.object({ error: z.string(), error_description: z.string().optional() }).meta({ id: 'OAuthError' });
export const RegistrationBody = z.record(z.string(), z.unknown()).meta({ description: 'Client metadata (RFC 7591): redirect_uris (required), client_name, client_uri; token_endpoint_auth_method none' });
export const RegisteredClient = z.object({ client_id: z.string(), client_name: z.string(), redirect_uris: z.array(z.string()) }).catchall(z.unknown());
export const TokenResponse = z.object({
  access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number(), refresh_token: z.string(), scope: z.string(),
}).meta({ id: 'TokenResponse' });
export const AppsQuery = z.strictObject({ revoked: z.literal('1').optional(), done: z.literal('guardrails').optional(), error: z.string().max(60).optional() });
export const AppParams = z.strictObject({ id: z.string().min(1).max(100) });

/**
 * The authorization request (OAuth 2.1 §4.1.1): code flow with PKCE S256 only, and the resource (RFC 8707). Not
 * strict: RFC 6749 §3.1 says unrecognized request parameters MUST be ignored (they are not carried further).
 */
export const AuthorizeQuery = z.object({
  response_type: z.string().max(40),
  client_id: z.string().min(1).max(2000),
  redirect_uri: z.string().min(1).max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(1000).optional(),
  scope: z.string().max(200).optional(),
  resource: z.string().max(2000).optional(),
});
export type AuthorizeQuery = z.infer<typeof AuthorizeQuery>;
/** The consent form: the request as hidden fields (exactly these) and the owner's decision. */
export const ConsentForm = AuthorizeQuery.extend({ decision: z.enum(['allow', 'deny']) }).strict();

