import type { RouteDef } from '../../shared/http/route';
import * as o from '../../shared/api/oauth-schemas';
import * as mo from '../../shared/api/mcp-oauth-schemas';
import { E, std } from './errors';

/** The MCP routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const mcpRoutes = {
  postMcp: {
    id: 'post-mcp', stack: 'Mcp', method: 'POST', path: '/api/mcp', tag: 'MCP', auth: 'key', scope: 'read', handler: 'functions/mcp/handler.ts',
    extraMethods: ['GET', 'DELETE', 'OPTIONS'], functionUrlOutput: 'McpUrl', browserCors: true,
    grants: ['table', 'kms', 'kmsDecrypt', 'publishQueue', 'webhookQueue', 'scheduler', 'oauthConfig', 'ses', 'bedrock'], networks: true, timeoutSeconds: 29, memoryMb: 1024, splitBundle: true,
    summary: 'The hosted MCP server: Streamable HTTP, stateless, JSON responses (an event stream when a tools/call asks a 2025-11-25 client to open a URL), protocol 2026-07-28 (server/discover) and the 2025 revisions (initialize); tools, resources and prompts (send Accept: application/json, text/event-stream); GET and DELETE answer 405; OPTIONS is the CORS preflight; a browser Origin outside the allow-list answers 403',
    responses: {
      200: { description: 'The JSON-RPC response' }, 202: { description: 'A notification or response accepted' },
      400: E('Invalid JSON-RPC'), 405: E('GET or DELETE: the server is stateless'), 403: E('origin_not_allowed: a browser Origin outside the allow-list'), 406: { description: 'Accept lacks application/json or text/event-stream' }, ...std,
    },
  },
  getOauthProtectedResource: {
    id: 'get-oauth-protected-resource', stack: 'Mcp', browserCors: true, extraMethods: ['OPTIONS'], method: 'GET', path: '/.well-known/oauth-protected-resource', tag: 'MCP', auth: 'open', grants: [],
    summary: "Protected resource metadata of the MCP server (RFC 9728): its URL and its authorization server",
    responses: { 200: { description: 'Metadata', schema: mo.ProtectedResourceMetadata } },
  },
  getOauthAuthorizationServer: {
    id: 'get-oauth-authorization-server', stack: 'Mcp', browserCors: true, extraMethods: ['OPTIONS'], method: 'GET', path: '/.well-known/oauth-authorization-server', tag: 'MCP', auth: 'open', grants: [],
    summary: 'Authorization server metadata (RFC 8414): code flow with PKCE S256, dynamic registration, client ID metadata documents, revocation',
    responses: { 200: { description: 'Metadata', schema: mo.AuthorizationServerMetadata } },
  },
  postOauthRegister: {
    id: 'post-oauth-register', stack: 'Mcp', browserCors: true, extraMethods: ['OPTIONS'], method: 'POST', path: '/oauth/register', tag: 'MCP', auth: 'open', grants: ['table'],
    summary: 'Dynamic client registration (RFC 7591) of a public MCP client (PKCE, no secret); 20 an hour per IP',
    body: mo.RegistrationBody, rateLimit: { limit: 20, windowSeconds: 3600 },
    responses: { 201: { description: 'Registered', schema: mo.RegisteredClient }, 400: { description: 'invalid_client_metadata', schema: mo.OAuthErrorBody }, 429: std[429] },
  },
  getDashboardAppsAuthorize: {
    id: 'get-dashboard-apps-authorize', stack: 'Mcp', method: 'GET', path: '/dashboard/apps/authorize', tag: 'MCP', auth: 'session', grants: ['table'],
    summary: 'The authorization endpoint: the consent page (signed-in owner) for an MCP client; code flow with PKCE S256 only',
    query: mo.AuthorizeQuery,
    responses: { 200: { description: 'Consent page (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page, or back to the app with an error' }, 400: { description: 'Unknown app or redirect URI (HTML)' } },
  },
  postDashboardAppsAuthorize: {
    id: 'post-dashboard-apps-authorize', stack: 'Mcp', method: 'POST', path: '/dashboard/apps/authorize', tag: 'MCP', auth: 'session', grants: ['table'],
    summary: "The consent page's answer: allow (a single-use code for 5 minutes) or deny, back to the app's redirect URI",
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 303: { description: 'Back to the app with code or error' }, 400: { description: 'Unknown app or redirect URI (HTML)' }, 403: E('session_required, csrf_failed') },
  },
  postOauthToken: {
    id: 'post-oauth-token', stack: 'Mcp', browserCors: true, extraMethods: ['OPTIONS'], method: 'POST', path: '/oauth/token', tag: 'MCP', auth: 'open', grants: ['table'],
    summary: 'Token endpoint: a code (PKCE S256) or a refresh token (rotated) for a 1-hour access token bound to the MCP URL',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 120, windowSeconds: 60 },
    responses: { 200: { description: 'Tokens', schema: mo.TokenResponse }, 400: { description: 'invalid_grant, invalid_request, invalid_target, unsupported_grant_type', schema: mo.OAuthErrorBody }, 429: std[429] },
  },
  postOauthRevoke: {
    id: 'post-oauth-revoke', stack: 'Mcp', browserCors: true, extraMethods: ['OPTIONS'], method: 'POST', path: '/oauth/revoke', tag: 'MCP', auth: 'open', grants: ['table'],
    summary: 'Token revocation (RFC 7009): an access or refresh token stops working at once',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 120, windowSeconds: 60 },
    responses: { 200: { description: 'Revoked (also for an unknown token)' }, 400: { description: 'invalid_request', schema: mo.OAuthErrorBody }, 429: std[429] },
  },
  getDashboardApps: {
    id: 'get-dashboard-apps', stack: 'Mcp', method: 'GET', path: '/dashboard/apps', tag: 'MCP', auth: 'session', grants: ['table'],
    summary: 'The AI apps page: MCP clients the owner allowed, with revoke buttons',
    query: mo.AppsQuery,
    responses: { 200: { description: 'AI apps (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardAppRevoke: {
    id: 'post-dashboard-app-revoke', stack: 'Mcp', method: 'POST', path: '/dashboard/apps/{id}/revoke', tag: 'MCP', auth: 'session', grants: ['table'],
    summary: 'Revoke an AI app: its tokens stop working at once',
    params: mo.AppParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, optionalBody: true,
    responses: { 303: { description: 'Back to the AI apps page' }, 403: E('session_required, csrf_failed'), 404: E('not_found') },
  },
  postDashboardAppGuardrails: {
    id: 'post-dashboard-app-guardrails', stack: 'Mcp', method: 'POST', path: '/dashboard/apps/{id}/guardrails', tag: 'MCP', auth: 'session', grants: ['table'],
    summary: "Set an AI app's guardrails (monthly cap, allowed networks and brands, always needs approval) from the AI apps page",
    params: mo.AppParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 303: { description: 'Back to the AI apps page (done=guardrails, or error=<code>)' }, 403: E('session_required, csrf_failed') },
  },
} as const satisfies Record<string, RouteDef>;
