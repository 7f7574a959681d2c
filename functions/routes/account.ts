import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as o from '../../shared/api/oauth-schemas';
import * as sec from '../../shared/api/security-schemas';
import { E, std } from './errors';

/** The Account routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const accountRoutes = {
  postSignup: {
    id: 'post-signup', method: 'POST', path: '/api/signup', tag: 'Account', auth: 'open', grants: ['table', 'ses'],
    summary: 'Sign up: emails a one-time confirmation link that issues the first API key (5 an hour per IP, 3 a day per email)',
    body: s.SignupBody,
    responses: { 200: { description: 'Email sent (same answer for known addresses)', schema: s.SignupResponse }, 400: E('Invalid email'), 429: std[429] },
  },
  getSignupConfirm: {
    id: 'get-signup-confirm', method: 'GET', path: '/api/signup/confirm', tag: 'Account', auth: 'open', grants: [],
    summary: 'Open the emailed link: a page with one button that confirms (POST); opening it uses nothing, so mail scanners cannot spend it',
    query: s.ConfirmQuery,
    responses: { 200: { description: 'The confirmation page (HTML)', contentType: 'text/html' }, 400: E('confirm_with_post: JSON clients POST /api/signup/confirm {token}') },
  },
  getMe: {
    id: 'get-me', method: 'GET', path: '/api/me', tag: 'Account', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'The account, its plan, usage, brands and connections',
    responses: { 200: { description: 'Account', schema: s.MeResponse }, ...std },
  },
  getUsage: {
    id: 'get-usage', method: 'GET', path: '/api/usage', tag: 'Account', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'For each plan limit: limit, used, remaining, resets_at',
    responses: { 200: { description: 'Usage', schema: s.UsageResponse }, ...std },
  },
  postSignupConfirm: {
    id: 'post-signup-confirm', method: 'POST', path: '/api/signup/confirm', tag: 'Account', auth: 'open', grants: ['table'],
    summary: 'Confirm the email with the emailed token: verifies it and answers the first API key once (JSON {token}; the page posts a form)',
    body: s.ConfirmBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: { 200: { description: 'The API key, shown once', schema: s.ConfirmResponse }, 400: E('Invalid input'), 410: E('link_expired: used or expired'), 429: std[429] },
  },
  patchMe: {
    id: 'patch-me', method: 'PATCH', path: '/api/me', tag: 'Account', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Account settings: the https origins redirect_after may lead to (besides this service)',
    body: sec.PatchMeBody,
    responses: { 200: { description: 'Saved', schema: sec.PatchMeResponse }, 400: E('invalid_redirect_origin'), ...std },
  },
} as const satisfies Record<string, RouteDef>;
