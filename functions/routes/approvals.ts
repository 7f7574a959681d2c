import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as o from '../../shared/api/oauth-schemas';
import * as a from '../../shared/api/approval-schemas';
import { E, std } from './errors';

/** The Approvals routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const approvalsRoutes = {
  getApprovals: {
    id: 'get-approvals', method: 'GET', path: '/api/approvals', tag: 'Approvals', auth: 'key', grants: ['table'],
    summary: 'Held posts and their decisions, newest first (read-only: a key can never decide)',
    query: a.ApprovalsQuery,
    responses: { 200: { description: 'Approvals', schema: a.ApprovalsResponse }, ...std },
  },
  getApproval: {
    id: 'get-approval', method: 'GET', path: '/api/approvals/{id}', tag: 'Approvals', auth: 'key', grants: ['table'],
    summary: 'One held post and its decision (read-only)',
    params: s.IdParams,
    responses: { 200: { description: 'Approval', schema: a.ApprovalResponse }, 404: E('approval_not_found'), ...std },
  },
  postApprovalClientLink: {
    id: 'post-approval-client-link', method: 'POST', path: '/api/approvals/{id}/client-link', tag: 'Approvals', auth: 'session', grants: ['table'],
    summary: 'A signed single-use link for a client approver (no account needed), 72 hours; Pro and above. Dashboard session and CSRF only: an API key or AI app never gets one (403 session_required)',
    params: s.IdParams,
    responses: { 200: { description: 'The link', schema: a.ClientLinkResponse }, 402: E('plan_feature (pro)'), 403: E('session_required (an API key or MCP token), csrf_failed'), 404: E('approval_not_found'), 409: E('approval_decided') },
  },
  getReview: {
    id: 'get-review', method: 'GET', path: '/review/{token}', tag: 'Approvals', auth: 'open', grants: ['table'],
    summary: "The emailed owner link or a client approver link: the held post and two buttons (the GET never decides)",
    params: a.ReviewParams,
    responses: { 200: { description: 'Review page (HTML)', contentType: 'text/html' }, 404: { description: 'Unknown or tampered link (HTML)' }, 410: { description: 'Used or expired link, or already decided (HTML)' } },
  },
  postReview: {
    id: 'post-review', method: 'POST', path: '/review/{token}', tag: 'Approvals', auth: 'open', grants: ['table', 'kms', 'publishQueue', 'webhookQueue', 'scheduler'],
    summary: 'Decides through a review link (approve publishes through the publish path; reject sends nothing); the link works once',
    params: a.ReviewParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 }, timeoutSeconds: 29,
    responses: { 200: { description: 'Decided (HTML)', contentType: 'text/html' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Used, expired or decided (HTML)' } },
  },
} as const satisfies Record<string, RouteDef>;
