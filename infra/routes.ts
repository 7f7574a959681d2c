import type { RouteDef } from '../shared/http/route';
import * as s from '../shared/api/schemas';
import * as p from '../shared/api/publish-schemas';
import { PostRequestSchema } from '../shared/app/publish/request';

/**
 * THE route table: the CDK API stack, the local HTTP server and the OpenAPI document are all derived from it.
 * Adding an endpoint is one entry here plus functions/http/<id>.ts.
 */
const E = (description: string) => ({ description, schema: s.ErrorBody });
const std = { 401: E('Missing, unknown, expired or revoked API key'), 429: E('Rate limited (Retry-After)') };

export const routes = {
  getPlatforms: {
    id: 'get-platforms', method: 'GET', path: '/api/platforms', tag: 'Catalog', auth: 'open', grants: [],
    summary: 'The networks, what each needs, and whether it is available now',
    responses: { 200: { description: 'The networks', schema: s.PlatformsResponse } },
  },
  getPlans: {
    id: 'get-plans', method: 'GET', path: '/api/plans', tag: 'Catalog', auth: 'open', grants: [],
    summary: 'Plans and their limits',
    responses: { 200: { description: 'The plan table', schema: s.PlansResponse } },
  },
  getOpenapi: {
    id: 'get-openapi', method: 'GET', path: '/api/openapi.json', tag: 'Catalog', auth: 'open', grants: [],
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'OpenAPI document' } },
  },
  postSignup: {
    id: 'post-signup', method: 'POST', path: '/api/signup', tag: 'Account', auth: 'open', grants: ['table', 'ses'],
    summary: 'Sign up: emails a one-time confirmation link that issues the first API key (5 an hour per IP, 3 a day per email)',
    body: s.SignupBody,
    responses: { 200: { description: 'Email sent (same answer for known addresses)', schema: s.SignupResponse }, 400: E('Invalid email'), 429: std[429] },
  },
  getSignupConfirm: {
    id: 'get-signup-confirm', method: 'GET', path: '/api/signup/confirm', tag: 'Account', auth: 'open', grants: ['table'],
    summary: 'Open the emailed link: verifies the email and shows the first API key once (HTML; JSON with Accept: application/json)',
    query: s.ConfirmQuery,
    responses: { 200: { description: 'The API key, shown once', schema: s.ConfirmResponse }, 410: E('Link used or expired') },
  },
  getMe: {
    id: 'get-me', method: 'GET', path: '/api/me', tag: 'Account', auth: 'key', grants: ['table'],
    summary: 'The account, its plan, usage, brands and connections',
    responses: { 200: { description: 'Account', schema: s.MeResponse }, ...std },
  },
  getUsage: {
    id: 'get-usage', method: 'GET', path: '/api/usage', tag: 'Account', auth: 'key', grants: ['table'],
    summary: 'For each plan limit: limit, used, remaining, resets_at',
    responses: { 200: { description: 'Usage', schema: s.UsageResponse }, ...std },
  },
  postKeys: {
    id: 'post-keys', method: 'POST', path: '/api/keys', tag: 'API keys', auth: 'key', grants: ['table'],
    summary: 'Create an API key (secret shown once); 20 a day per account',
    rateLimit: { limit: 20, windowSeconds: 86_400 },
    body: s.CreateKeyBody, optionalBody: true,
    responses: { 200: { description: 'The new key, with its secret (shown once)', schema: s.CreateKeyResponse }, 400: E('Invalid input'), ...std },
  },
  getKeys: {
    id: 'get-keys', method: 'GET', path: '/api/keys', tag: 'API keys', auth: 'key', grants: ['table'],
    summary: 'List API keys (prefixes only)',
    responses: { 200: { description: 'Keys', schema: s.KeysResponse }, ...std },
  },
  deleteKey: {
    id: 'delete-key', method: 'DELETE', path: '/api/keys/{id}', tag: 'API keys', auth: 'key', grants: ['table'],
    summary: 'Revoke an API key at once',
    params: s.IdParams,
    responses: { 200: { description: 'Revoked', schema: s.RevokeResponse }, 404: E('Not found or already revoked'), ...std },
  },
  postBrands: {
    id: 'post-brands', method: 'POST', path: '/api/brands', tag: 'Brands', auth: 'key', grants: ['table'],
    summary: 'Create a brand (plan brand limit: 400 brand_limit_reached)',
    body: s.CreateBrandBody,
    responses: { 200: { description: 'Created', schema: s.CreateBrandResponse }, 400: E('Invalid input or brand_limit_reached'), ...std },
  },
  getBrands: {
    id: 'get-brands', method: 'GET', path: '/api/brands', tag: 'Brands', auth: 'key', grants: ['table'],
    summary: 'List brands',
    responses: { 200: { description: 'Brands', schema: s.BrandsResponse }, ...std },
  },
  patchBrand: {
    id: 'patch-brand', method: 'PATCH', path: '/api/brands/{id}', tag: 'Brands', auth: 'key', grants: ['table'],
    summary: 'Rename a brand or set its timezone and posting slots',
    params: s.IdParams, body: s.PatchBrandBody,
    responses: { 200: { description: 'Updated', schema: s.BrandView }, 404: E('brand_not_found'), ...std },
  },
  postConnect: {
    id: 'post-connect', method: 'POST', path: '/api/connect', tag: 'Connections', auth: 'key', grants: ['table', 'kms'],
    summary: 'Connect a credential network: the credentials are checked against the network, then stored encrypted',
    body: p.ConnectBody, timeoutSeconds: 29,
    responses: { 200: { description: 'Connected', schema: p.ConnectResponse }, 400: E('invalid_credentials, oauth_platform, brand_required'), 503: E('network_unavailable'), ...std },
  },
  getConnections: {
    id: 'get-connections', method: 'GET', path: '/api/connections', tag: 'Connections', auth: 'key', grants: ['table'],
    summary: 'What is connected, per brand (never the credentials)',
    responses: { 200: { description: 'Connections', schema: p.ConnectionsResponse }, ...std },
  },
  deleteConnection: {
    id: 'delete-connection', method: 'DELETE', path: '/api/connections/{id}', tag: 'Connections', auth: 'key', grants: ['table'],
    summary: 'Disconnect a network',
    params: s.IdParams,
    responses: { 200: { description: 'Deleted' }, 404: E('not_found'), ...std },
  },
  getConnectHealth: {
    id: 'get-connect-health', method: 'GET', path: '/api/connect/{platform}/health', tag: 'Connections', auth: 'key', grants: ['table', 'kms'],
    summary: 'Check the stored credentials against the network again (240 an hour per account)',
    rateLimit: { limit: 240, windowSeconds: 3600 }, params: p.PlatformParams, query: p.BrandQuery,
    responses: { 200: { description: 'Health', schema: p.HealthResponse }, 404: E('not_connected'), ...std },
  },
  postPost: {
    id: 'post-post', method: 'POST', path: '/api/post', tag: 'Publishing', auth: 'key', grants: ['table', 'kms', 'publishQueue'],
    summary: 'Publish to one or many networks in parallel: one result per network (60 a minute per account)',
    rateLimit: { limit: 60, windowSeconds: 60 }, body: PostRequestSchema, timeoutSeconds: 29, memoryMb: 1024,
    responses: {
      200: { description: 'One result per network, in request order', schema: p.PostResponse },
      400: E('invalid_request, caption_is_json, empty_text'), 404: E('brand_not_found'), 409: E('ambiguous_brand, duplicate_post'), ...std,
    },
  },
  getPostStatus: {
    id: 'get-post-status', method: 'GET', path: '/api/post/status', tag: 'Publishing', auth: 'key', grants: ['table'],
    summary: "A network's status for a post, by our post id (pst_…) or the network's own post id",
    query: p.StatusQuery,
    responses: { 200: { description: 'Status', schema: p.StatusResponse }, 404: E('not_found'), ...std },
  },
  getPosts: {
    id: 'get-posts', method: 'GET', path: '/api/posts', tag: 'Publishing', auth: 'key', grants: ['table'],
    summary: 'Post history with results, newest first',
    query: p.PostsQuery,
    responses: { 200: { description: 'Posts', schema: p.PostsResponse }, ...std },
  },
  getPost: {
    id: 'get-post', method: 'GET', path: '/api/posts/{id}', tag: 'Publishing', auth: 'key', grants: ['table'],
    summary: 'One post with each network result and the events recorded for it',
    params: s.IdParams,
    responses: { 200: { description: 'Post', schema: p.PostView }, 404: E('not_found'), ...std },
  },
  devOutbox: {
    id: 'dev-outbox', method: 'GET', path: '/dev/outbox', tag: 'Local', auth: 'open', localOnly: true, grants: [],
    summary: 'Local mode only: emails sent, newest first',
    responses: { 200: { description: 'Emails', schema: s.OutboxResponse } },
  },
  devPlan: {
    id: 'dev-plan', method: 'POST', path: '/dev/plan', tag: 'Local', auth: 'open', localOnly: true, grants: ['table'],
    summary: "Local mode only: set an account's plan without billing",
    body: s.DevPlanBody,
    responses: { 200: { description: 'Plan set' }, 404: E('No account with that email') },
  },
} as const satisfies Record<string, RouteDef>;

export const routeList: RouteDef[] = Object.values(routes);
