import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as o from '../../shared/api/oauth-schemas';
import * as d from '../../shared/api/dashboard-schemas';
import { E } from './errors';

/** The Dashboard routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const dashboardRoutes = {
  postDashboardPlanCheckout: {
    id: 'post-dashboard-plan-checkout', stack: 'Dashboard', method: 'POST', path: '/dashboard/plan/checkout', tag: 'Dashboard', auth: 'session', grants: ['table', 'billingConfig'],
    summary: "The Plan page's checkout button: 303 to Stripe Checkout for the chosen plan and interval",
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      303: { description: 'To Stripe Checkout' }, 400: { description: 'Invalid form (the Plan page with the message)' }, 403: E('session_required, csrf_failed'),
      409: { description: 'plan_already_active, subscription_exists (the Plan page with the message)' }, 503: { description: 'billing_unavailable (the Plan page with the message)' },
    },
  },
  postDashboardPlanPortal: {
    id: 'post-dashboard-plan-portal', stack: 'Dashboard', method: 'POST', path: '/dashboard/plan/portal', tag: 'Dashboard', auth: 'session', grants: ['table', 'billingConfig'],
    summary: "The Plan page's billing button: 303 to Stripe's customer portal",
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, optionalBody: true, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: { 303: { description: "To Stripe's customer portal" }, 403: E('session_required, csrf_failed'), 503: { description: 'billing_unavailable (the Plan page with the message)' } },
  },
  getDashboardSignIn: {
    id: 'get-dashboard-sign-in', stack: 'Dashboard', method: 'GET', path: '/dashboard/sign-in', tag: 'Dashboard', auth: 'open', grants: [],
    summary: 'The sign-in page: an email field for a magic link (HTML)',
    query: d.SignInQuery,
    responses: { 200: { description: 'Sign-in page (HTML)', contentType: 'text/html' } },
  },
  postDashboardSignIn: {
    id: 'post-dashboard-sign-in', stack: 'Dashboard', method: 'POST', path: '/dashboard/sign-in', tag: 'Dashboard', auth: 'open', grants: ['table', 'ses'],
    summary: 'Emails a sign-in link (same answer for unknown addresses; 5 an hour per IP, 3 an hour per email)',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'Check your email (HTML)', contentType: 'text/html' }, 400: { description: 'Invalid email (HTML)' }, 429: { description: 'Rate limited (HTML)' } },
  },
  getDashboardSignInLink: {
    id: 'get-dashboard-sign-in-link', stack: 'Dashboard', method: 'GET', path: '/dashboard/sign-in/link', tag: 'Dashboard', auth: 'open', grants: ['table'],
    summary: 'The emailed link: a page with one "Sign in" button (the GET never uses the link up)',
    query: d.SignInLinkQuery,
    responses: { 200: { description: 'Sign-in button (HTML)', contentType: 'text/html' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Used or expired link (HTML)' } },
  },
  postDashboardSignInLink: {
    id: 'post-dashboard-sign-in-link', stack: 'Dashboard', method: 'POST', path: '/dashboard/sign-in/link', tag: 'Dashboard', auth: 'open', grants: ['table'],
    summary: 'The "Sign in" button: uses the link once, sets the session cookie, 303 to the dashboard',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 },
    responses: { 303: { description: 'Signed in: to the return path' }, 403: E('cross_site_form: posted from another site (no session is set)'), 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Used or expired link (HTML)' } },
  },
  postDashboardSignOut: {
    id: 'post-dashboard-sign-out', stack: 'Dashboard', method: 'POST', path: '/dashboard/sign-out', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Ends the session at once and clears the cookie',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, optionalBody: true,
    responses: { 200: { description: 'Signed out (HTML)', contentType: 'text/html' }, 403: E('session_required, csrf_failed') },
  },
  getDashboard: {
    id: 'get-dashboard', stack: 'Dashboard', method: 'GET', path: '/dashboard', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Overview: charts of the last 7, 30 or 90 days (results by day and network, outcomes, engagement, failures by code) and every usage limit as a bar (warning from 80 %); without a session, 303 to sign-in',
    query: d.OverviewQuery,
    responses: { 200: { description: 'Overview (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  getDashboardPlan: {
    id: 'get-dashboard-plan', stack: 'Dashboard', method: 'GET', path: '/dashboard/plan', tag: 'Dashboard', auth: 'session', grants: ['table', 'billingConfig'],
    summary: 'The plan page every upgrade_url points to: the plan table and what the account uses',
    query: d.PlanQuery,
    responses: { 200: { description: 'Plan (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  getDashboardApprovals: {
    id: 'get-dashboard-approvals', stack: 'Dashboard', method: 'GET', path: '/dashboard/approvals', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Approvals: the queue of held posts, recent decisions, and the approval rules',
    query: d.FlashQuery,
    responses: { 200: { description: 'Approvals (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardApprovalDecision: {
    id: 'post-dashboard-approval-decision', stack: 'Dashboard', method: 'POST', path: '/dashboard/approvals/{id}/decision', tag: 'Dashboard', auth: 'session', grants: ['table', 'kms', 'publishQueue', 'webhookQueue', 'scheduler'],
    summary: 'The owner approves (publishes) or rejects (with a note) a held post',
    params: s.IdParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, timeoutSeconds: 29,
    responses: { 303: { description: 'Back to the approvals page' }, 403: E('session_required, csrf_failed'), 404: E('approval_not_found'), 409: { description: 'Already decided (HTML)' } },
  },
  postDashboardApprovalClientLink: {
    id: 'post-dashboard-approval-client-link', stack: 'Dashboard', method: 'POST', path: '/dashboard/approvals/{id}/client-link', tag: 'Dashboard', auth: 'session', grants: ['table', 'ses'],
    summary: 'The owner sends a held post to a client approver (Pro and above): a single-use 72-hour review link, shown and optionally emailed',
    params: s.IdParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'The link (HTML)', contentType: 'text/html' }, 402: { description: 'Below Pro (HTML)' }, 403: E('session_required, csrf_failed'), 404: { description: 'No such approval (HTML)' }, 409: { description: 'Already decided (HTML)' } },
  },
  postDashboardApprovalRules: {
    id: 'post-dashboard-approval-rules', stack: 'Dashboard', method: 'POST', path: '/dashboard/approvals/rules', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Sets the approval rule of the account or a brand (always, or for listed networks); paid plans',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 303: { description: 'Back to the approvals page' }, 402: { description: 'plan_feature (HTML)' }, 403: E('session_required, csrf_failed') },
  },
  getDashboardPosts: {
    id: 'get-dashboard-posts', method: 'GET', path: '/dashboard/posts', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Posts (activity log): filters by brand, network, status, source and dates; 50 a page',
    query: d.ActivityQuery,
    responses: { 200: { description: 'Posts (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  getDashboardPostsExport: {
    id: 'get-dashboard-posts-export', method: 'GET', path: '/dashboard/posts/export', tag: 'Dashboard', auth: 'session', grants: ['table', 'bucket'],
    summary: 'Export CSV of the filtered posts: streamed into storage, then 303 to a 15-minute download link',
    query: d.ActivityQuery, timeoutSeconds: 29, memoryMb: 512,
    responses: { 303: { description: 'To the CSV download' } },
  },
  getDashboardPost: {
    id: 'get-dashboard-post', method: 'GET', path: '/dashboard/posts/{id}', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: "One post: each network's result and the post's events",
    params: s.IdParams,
    responses: { 200: { description: 'Post (HTML)', contentType: 'text/html' }, 404: E('not_found') },
  },
  getDashboardKeys: {
    id: 'get-dashboard-keys', method: 'GET', path: '/dashboard/keys', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'API keys: create (secret shown once), revoke, and each key\'s guardrails',
    query: d.FlashQuery,
    responses: { 200: { description: 'API keys (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardKeys: {
    id: 'post-dashboard-keys', method: 'POST', path: '/dashboard/keys', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'API keys page actions: create, revoke, guardrails',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'The new key, shown once (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the page' }, 403: E('session_required, csrf_failed') },
  },
  getDashboardBrands: {
    id: 'get-dashboard-brands', method: 'GET', path: '/dashboard/brands', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Brands: add, rename, time zone and posting slots',
    query: d.FlashQuery,
    responses: { 200: { description: 'Brands (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardBrands: {
    id: 'post-dashboard-brands', method: 'POST', path: '/dashboard/brands', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Brands page actions (form field action)',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'The page with the outcome (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the page' }, 403: E('session_required, csrf_failed') },
  },
  getDashboardConnections: {
    id: 'get-dashboard-connections', method: 'GET', path: '/dashboard/connections', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Connections per brand: health check, reconnect link, disconnect',
    query: d.FlashQuery,
    responses: { 200: { description: 'Connections (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardConnections: {
    id: 'post-dashboard-connections', method: 'POST', path: '/dashboard/connections', tag: 'Dashboard', auth: 'session', grants: ['table', 'kms', 'oauthConfig', 'ses'], networks: true,
    summary: 'Connections page actions (form field action)',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, timeoutSeconds: 29,
    responses: { 200: { description: 'The page with the outcome (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the page' }, 403: E('session_required, csrf_failed') },
  },
  getDashboardWebhooks: {
    id: 'get-dashboard-webhooks', method: 'GET', path: '/dashboard/webhooks', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Webhooks: add, test, rotate the secret, delivery log, redeliver',
    query: d.WebhooksQuery,
    responses: { 200: { description: 'Webhooks (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardWebhooks: {
    id: 'post-dashboard-webhooks', method: 'POST', path: '/dashboard/webhooks', tag: 'Dashboard', auth: 'session', grants: ['table', 'kms', 'scheduler', 'webhookQueue'],
    summary: 'Webhooks page actions (form field action)',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'The page with the outcome (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the page' }, 403: E('session_required, csrf_failed') },
  },
  getDashboardBranding: {
    id: 'get-dashboard-branding', method: 'GET', path: '/dashboard/branding', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Branding (white label) of the account and each brand; Pro and above',
    query: d.FlashQuery,
    responses: { 200: { description: 'Branding (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardBranding: {
    id: 'post-dashboard-branding', method: 'POST', path: '/dashboard/branding', tag: 'Dashboard', auth: 'session', grants: ['table', 'bucket'],
    summary: 'Branding page actions (form field action)',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'The page with the outcome (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the page' }, 403: E('session_required, csrf_failed') },
  },
  getBrandingLogo: {
    id: 'get-branding-logo', method: 'GET', path: '/branding/{file}', tag: 'Dashboard', auth: 'open', grants: ['bucketRead'],
    summary: "A branding's stored logo (shown on the connect page and the dashboard): 302 to a short-lived storage link; 404 once replaced",
    params: d.BrandingLogoParams,
    responses: { 302: { description: 'Redirect to the logo in storage' }, 404: E('not_found') },
  },
  getDashboardCalendar: {
    id: 'get-dashboard-calendar', method: 'GET', path: '/dashboard/calendar', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: "Calendar: a brand's scheduled, recurring and published posts on a week or month grid with its posting slots; each scheduled post has a move form",
    query: d.CalendarQuery,
    responses: { 200: { description: 'Calendar (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' }, 404: { description: 'brand_not_found (HTML)' } },
  },
  postDashboardCalendarMove: {
    id: 'post-dashboard-calendar-move', method: 'POST', path: '/dashboard/calendar/move', tag: 'Dashboard', auth: 'session', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Moves a scheduled post to a free slot or another time (the change of PATCH /api/schedule/{id}); 303 back to the calendar with the outcome',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 303: { description: 'Back to the calendar (done=moved, or error=<code>)' }, 403: E('session_required, csrf_failed') },
  },
  getDashboardCompose: {
    id: 'get-dashboard-compose', stack: 'Dashboard', method: 'GET', path: '/dashboard/compose', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: "Compose: one post, the brand's connected networks, media, per-network previews with live counts, and Check / Publish now / Schedule / Send for approval",
    query: d.ComposeQuery,
    responses: { 200: { description: 'Compose (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  postDashboardCompose: {
    id: 'post-dashboard-compose', stack: 'Dashboard', method: 'POST', path: '/dashboard/compose', tag: 'Dashboard', auth: 'session', grants: ['table', 'kms', 'publishQueue', 'webhookQueue', 'scheduler', 'ses'],
    summary: 'Compose buttons (form field action): check (as POST /api/validate), publish (as POST /api/post), schedule (as POST /api/schedule), approval, upload_link',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, timeoutSeconds: 29, memoryMb: 1024, rateLimit: { limit: 60, windowSeconds: 60 },
    responses: {
      200: { description: 'The page with the verdicts or results, the form kept (HTML)', contentType: 'text/html' },
      400: { description: 'Refused as the API would answer it (its status and code; also 402, 404, 409): the page with the message, the form kept (HTML)', contentType: 'text/html' },
      403: E('session_required, csrf_failed'),
    },
  },
  getDashboardScript: {
    id: 'get-dashboard-script', stack: 'Dashboard', method: 'GET', path: '/dashboard/script.js', tag: 'Dashboard', auth: 'open', grants: [],
    summary: "The dashboard's one script (an ES module): Compose's live counts in each network's units, copy buttons; pages work without it",
    query: d.EmptyQuery,
    responses: { 200: { description: 'JavaScript module', contentType: 'text/javascript' } },
  },
} as const satisfies Record<string, RouteDef>;
