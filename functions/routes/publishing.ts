import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as p from '../../shared/api/publish-schemas';
import * as o from '../../shared/api/oauth-schemas';
import * as a from '../../shared/api/approval-schemas';
import { PostRequestSchema } from '../../shared/app/publish/request';
import { ValidateRequestSchema } from '../../shared/app/publish/validate-request';
import { E, std } from './errors';

/** The Publishing routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const publishingRoutes = {
  postPost: {
    id: 'post-post', method: 'POST', path: '/api/post', tag: 'Publishing', auth: 'key', scope: 'publish', grants: ['table', 'kms', 'publishQueue', 'webhookQueue', 'scheduler', 'ses'],
    summary: 'Publish to one or many networks in parallel: one result per network (60 a minute per account)',
    rateLimit: { limit: 60, windowSeconds: 60 }, body: PostRequestSchema, timeoutSeconds: 29, memoryMb: 1024,
    responses: {
      200: { description: 'One result per network, in request order', schema: p.PostResponse },
      202: { description: 'Held for approval: every network pending_approval, nothing sent (issue 16)', schema: a.HeldPostResponse },
      400: E('invalid_request, caption_is_json, empty_text'), 403: E('key_scope, brand_not_allowed, key_monthly_cap_reached'),
      404: E('brand_not_found'), 409: E('ambiguous_brand, duplicate_post'), ...std,
    },
  },
  getPostStatus: {
    id: 'get-post-status', method: 'GET', path: '/api/post/status', tag: 'Publishing', auth: 'key', scope: 'read', grants: ['table'],
    summary: "A network's status for a post, by our post id (pst_…) or the network's own post id",
    query: p.StatusQuery,
    responses: { 200: { description: 'Status', schema: p.StatusResponse }, 404: E('not_found'), ...std },
  },
  getPosts: {
    id: 'get-posts', method: 'GET', path: '/api/posts', tag: 'Publishing', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'Post history with results, newest first',
    query: p.PostsQuery,
    responses: { 200: { description: 'Posts', schema: p.PostsResponse }, ...std },
  },
  getPost: {
    id: 'get-post', method: 'GET', path: '/api/posts/{id}', tag: 'Publishing', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'One post with each network result and the events recorded for it',
    params: s.IdParams,
    responses: { 200: { description: 'Post', schema: p.PostView }, 404: E('not_found'), ...std },
  },
  getX: {
    id: 'get-x', method: 'GET', path: '/api/x', tag: 'Publishing', auth: 'key', scope: 'read', grants: ['table'],
    summary: "The X add-on: its credit rules, the plan's credits, used, left and the reset date",
    responses: { 200: { description: 'X credits', schema: o.XAddonResponse }, ...std },
  },
  postValidate: {
    id: 'post-validate', method: 'POST', path: '/api/validate', tag: 'Publishing', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt'],
    summary: 'Dry run: the body of POST /api/post (or of POST /api/schedule, with run_at) checked as the real send checks it, per network; nothing is sent, written or spent',
    body: ValidateRequestSchema, timeoutSeconds: 29,
    responses: {
      200: { description: 'Per network ok, or the code, what and fix it would fail with', schema: p.ValidateResponse },
      400: E('invalid_request, caption_is_json, empty_text, invalid_run_at, scheduled_limit_reached'), 403: E('key_scope, brand_not_allowed, key_monthly_cap_reached'),
      404: E('brand_not_found'), 409: E('ambiguous_brand, duplicate_post'), ...std,
    },
  },
} as const satisfies Record<string, RouteDef>;
