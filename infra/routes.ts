import type { RouteDef } from '../shared/http/route';
import * as s from '../shared/api/schemas';
import * as p from '../shared/api/publish-schemas';
import * as wh from '../shared/api/webhook-schemas';
import * as m from '../shared/api/media-schemas';
import * as sch from '../shared/api/schedule-schemas';
import * as o from '../shared/api/oauth-schemas';
import * as sec from '../shared/api/security-schemas';
import * as bill from '../shared/api/billing-schemas';
import { PostRequestSchema } from '../shared/app/publish/request';
import * as mo from '../shared/api/mcp-oauth-schemas';
import * as d from '../shared/api/dashboard-schemas';
import * as g from '../shared/api/guardrail-schemas';
import * as a from '../shared/api/approval-schemas';
import * as ai from '../shared/api/ai-schemas';

/**
 * THE route table: the CDK API stack, the local HTTP server and the OpenAPI document are all derived from it.
 * Adding an endpoint is one entry here plus functions/http/<id>.ts.
 */
const E = (description: string) => ({ description, schema: s.ErrorBody });
const std = { 401: E('Missing, unknown, expired or revoked API key'), 429: E('Rate limited (Retry-After)') };

export const routes = {
  getPlatforms: {
    id: 'get-platforms', method: 'GET', path: '/api/platforms', tag: 'Catalog', auth: 'open', grants: ['oauthConfig'],
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
  postKeys: {
    id: 'post-keys', method: 'POST', path: '/api/keys', tag: 'API keys', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Create an API key (secret shown once); 20 a day per account',
    rateLimit: { limit: 20, windowSeconds: 86_400 },
    body: s.CreateKeyBody, optionalBody: true,
    responses: { 200: { description: 'The new key, with its secret (shown once)', schema: s.CreateKeyResponse }, 400: E('Invalid input'), ...std },
  },
  getKeys: {
    id: 'get-keys', method: 'GET', path: '/api/keys', tag: 'API keys', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'List API keys (prefixes only)',
    responses: { 200: { description: 'Keys', schema: s.KeysResponse }, ...std },
  },
  deleteKey: {
    id: 'delete-key', method: 'DELETE', path: '/api/keys/{id}', tag: 'API keys', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Revoke an API key at once',
    params: s.IdParams,
    responses: { 200: { description: 'Revoked', schema: s.RevokeResponse }, 404: E('Not found or already revoked'), ...std },
  },
  postBrands: {
    id: 'post-brands', method: 'POST', path: '/api/brands', tag: 'Brands', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Create a brand (plan brand limit: 400 brand_limit_reached)',
    body: s.CreateBrandBody,
    responses: { 200: { description: 'Created', schema: s.CreateBrandResponse }, 400: E('Invalid input or brand_limit_reached'), ...std },
  },
  getBrands: {
    id: 'get-brands', method: 'GET', path: '/api/brands', tag: 'Brands', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'List brands',
    responses: { 200: { description: 'Brands', schema: s.BrandsResponse }, ...std },
  },
  patchBrand: {
    id: 'patch-brand', method: 'PATCH', path: '/api/brands/{id}', tag: 'Brands', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Rename a brand or set its timezone and posting slots',
    params: s.IdParams, body: s.PatchBrandBody,
    responses: { 200: { description: 'Updated', schema: s.BrandView }, 404: E('brand_not_found'), ...std },
  },
  postConnect: {
    id: 'post-connect', method: 'POST', path: '/api/connect', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt'],
    summary: 'Connect a credential network: the credentials are checked against the network, then stored encrypted',
    body: p.ConnectBody, timeoutSeconds: 29,
    responses: { 200: { description: 'Connected', schema: p.ConnectResponse }, 400: E('invalid_credentials, oauth_platform, brand_required'), 503: E('network_unavailable'), ...std },
  },
  getConnections: {
    id: 'get-connections', method: 'GET', path: '/api/connections', tag: 'Connections', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'What is connected, per brand (never the credentials)',
    responses: { 200: { description: 'Connections', schema: p.ConnectionsResponse }, ...std },
  },
  deleteConnection: {
    id: 'delete-connection', method: 'DELETE', path: '/api/connections/{id}', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Disconnect a network',
    params: s.IdParams,
    responses: { 200: { description: 'Deleted' }, 404: E('not_found'), ...std },
  },
  getConnectHealth: {
    id: 'get-connect-health', method: 'GET', path: '/api/connect/{platform}/health', tag: 'Connections', auth: 'key', scope: 'read', grants: ['table', 'kms', 'oauthConfig'],
    summary: 'Check the stored credentials against the network again (240 an hour per account)',
    rateLimit: { limit: 240, windowSeconds: 3600 }, params: p.PlatformParams, query: p.BrandQuery,
    responses: { 200: { description: 'Health', schema: p.HealthResponse }, 404: E('not_connected'), ...std },
  },
  postPost: {
    id: 'post-post', method: 'POST', path: '/api/post', tag: 'Publishing', auth: 'key', scope: 'publish', grants: ['table', 'kms', 'publishQueue', 'webhookQueue', 'scheduler', 'ses'],
    summary: 'Publish to one or many networks in parallel: one result per network (60 a minute per account)',
    rateLimit: { limit: 60, windowSeconds: 60 }, body: PostRequestSchema, timeoutSeconds: 29, memoryMb: 1024,
    responses: {
      200: { description: 'One result per network, in request order', schema: p.PostResponse },
      202: { description: 'Held for approval: every network pending_approval, nothing sent (issue 16)', schema: a.HeldPostResponse },
      400: E('invalid_request, caption_is_json, empty_text'), 404: E('brand_not_found'), 409: E('ambiguous_brand, duplicate_post'), ...std,
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
  postMediaUploadUrl: {
    id: 'post-media-upload-url', method: 'POST', path: '/api/media/upload-url', tag: 'Media', auth: 'key', scope: 'publish', grants: ['table', 'bucket'],
    summary: 'Start an upload: a presigned PUT bound to the content type and size (at most 50 MB); 60 an hour per account',
    rateLimit: { limit: 60, windowSeconds: 3600 }, body: m.UploadUrlBody,
    responses: { 200: { description: 'PUT the raw bytes to upload_url, then finalize with path', schema: m.UploadUrlResponse }, 400: E('Invalid content type or size'), 413: E('too_large: more than 50 MB'), ...std },
  },
  getMediaFinalize: {
    id: 'get-media-finalize', method: 'GET', path: '/api/media/finalize', tag: 'Media', auth: 'key', scope: 'publish', grants: ['table', 'bucket'],
    summary: 'Finish an upload: checks the stored file (size, type, first bytes) and answers media_url; 404 before the upload',
    query: m.FinalizeQuery,
    responses: {
      200: { description: 'Uploaded: media_url works as video_url, photo_url or media[].url for 30 days', schema: m.FinalizeResponse },
      400: E('upload_mismatch: the stored file is not what was declared (it was deleted)'), 404: E('not_found: not uploaded yet, not yours, or deleted after 30 days'), ...std,
    },
  },
  postMediaUploadLink: {
    id: 'post-media-upload-link', method: 'POST', path: '/api/media/upload-link', tag: 'Media', auth: 'key', scope: 'publish', grants: ['table'],
    summary: 'A hosted upload page for someone without an account (works once, for 1 hour); 30 an hour per account',
    rateLimit: { limit: 30, windowSeconds: 3600 }, body: m.UploadLinkBody, optionalBody: true,
    responses: { 200: { description: 'The page URL and its token', schema: m.UploadLinkResponse }, 400: E('Invalid input'), ...std },
  },
  getMediaUploadLink: {
    id: 'get-media-upload-link', method: 'GET', path: '/api/media/upload-link/{token}', tag: 'Media', auth: 'key', scope: 'read', grants: ['table'],
    summary: "Where an upload link stands (open, uploading, uploaded, expired) and the uploaded file's path",
    params: m.TokenParams,
    responses: { 200: { description: 'Status', schema: m.UploadLinkStatusResponse }, 404: E('not_found'), ...std },
  },
  getMediaUploadPage: {
    id: 'get-media-upload-page', method: 'GET', path: '/upload/{token}', tag: 'Media', auth: 'open', grants: ['table'],
    summary: 'The hosted upload page of an upload link (HTML; no login, only the token)',
    params: m.TokenParams, rateLimit: { limit: 120, windowSeconds: 3600 },
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Link used or expired (HTML)' } },
  },
  postMediaUploadLinkUrl: {
    id: 'post-media-upload-link-url', method: 'POST', path: '/api/media/upload-link/{token}/url', tag: 'Media', auth: 'open', grants: ['table', 'bucket'],
    summary: "Called by the upload page: a presigned PUT for the link's account (token only)",
    params: m.TokenParams, body: m.UploadUrlBody, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      200: { description: 'Upload URL', schema: m.UploadUrlResponse }, 400: E('Invalid or not accepted type'), 404: E('Unknown link'),
      403: E('cross_site_form, form_token_invalid (the page token in X-Form-Token)'),
      410: E('link_used, link_expired'), 413: E('too_large'), 429: std[429],
    },
  },
  postMediaUploadLinkComplete: {
    id: 'post-media-upload-link-complete', method: 'POST', path: '/api/media/upload-link/{token}/complete', tag: 'Media', auth: 'open', grants: ['table', 'bucket'],
    summary: 'Called by the upload page after the PUT: checks the file and closes the link (single use)',
    params: m.TokenParams, body: m.CompleteUploadBody, rateLimit: { limit: 60, windowSeconds: 3600 },
    responses: {
      200: { description: 'Uploaded', schema: m.CompleteUploadResponse }, 400: E('upload_mismatch'), 404: E('Not uploaded yet or unknown'),
      403: E('cross_site_form, form_token_invalid (the page token in X-Form-Token)'),
      410: E('link_expired'), 429: std[429],
    },
  },
  getMediaFile: {
    id: 'get-media-file', method: 'GET', path: '/media/{file}', tag: 'Media', auth: 'open', grants: ['table', 'bucketRead'],
    summary: 'An uploaded file (media_url): 302 to a short-lived storage link; 404 once deleted',
    params: m.MediaFileParams,
    responses: { 302: { description: 'Redirect to the file in storage' }, 404: E('not_found') },
  },
  headMediaFile: {
    id: 'head-media-file', method: 'HEAD', path: '/media/{file}', tag: 'Media', auth: 'open', grants: ['table'],
    summary: "An uploaded file's type and size (for fetchers that check a link with HEAD first)",
    params: m.MediaFileParams,
    responses: { 200: { description: 'Content-Type and Content-Length of the file, no body' }, 404: { description: 'not_found' } },
  },
  postWebhooks: {
    id: 'post-webhooks', method: 'POST', path: '/api/webhooks', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt', 'scheduler'],
    summary: 'Register a webhook endpoint (https, public address); the signing secret is shown only here; 20 a day per account',
    rateLimit: { limit: 20, windowSeconds: 86_400 }, body: wh.CreateWebhookBody,
    responses: {
      201: { description: 'Registered, with its secret (shown once)', schema: wh.CreateWebhookResponse },
      400: E('invalid_webhook_url, unknown_event, webhook_limit_reached (with upgrade_url)'), ...std,
    },
  },
  getWebhooks: {
    id: 'get-webhooks', method: 'GET', path: '/api/webhooks', tag: 'Webhooks', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'List webhook endpoints (never the secrets)',
    responses: { 200: { description: 'Endpoints', schema: wh.WebhooksResponse }, ...std },
  },
  deleteWebhook: {
    id: 'delete-webhook', method: 'DELETE', path: '/api/webhooks/{id}', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Remove a webhook endpoint (pending deliveries to it stop)',
    params: wh.WebhookParams,
    responses: { 200: { description: 'Deleted', schema: wh.DeleteWebhookResponse }, 404: E('not_found'), ...std },
  },
  postWebhookTest: {
    id: 'post-webhook-test', method: 'POST', path: '/api/webhooks/{id}/test', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'webhookQueue'],
    summary: 'Send a webhook.test event to this endpoint (30 an hour per account)',
    rateLimit: { limit: 30, windowSeconds: 3600 }, params: wh.WebhookParams,
    responses: { 202: { description: 'Queued; the try shows in the delivery log', schema: wh.TestWebhookResponse }, 404: E('not_found'), ...std },
  },
  postWebhookRotate: {
    id: 'post-webhook-rotate', method: 'POST', path: '/api/webhooks/{id}/rotate', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt'],
    summary: 'New signing secret (shown once); for 24 h deliveries carry v1 signatures with both the old and the new secret',
    rateLimit: { limit: 20, windowSeconds: 86_400 }, params: wh.WebhookParams,
    responses: { 200: { description: 'The new secret', schema: wh.RotateWebhookResponse }, 404: E('not_found'), ...std },
  },
  getWebhookDeliveries: {
    id: 'get-webhook-deliveries', method: 'GET', path: '/api/webhooks/{id}/deliveries', tag: 'Webhooks', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'The delivery log of an endpoint: every try, newest first, paginated (kept 30 days)',
    params: wh.WebhookParams, query: wh.DeliveriesQuery,
    responses: { 200: { description: 'Tries', schema: wh.DeliveriesResponse }, 400: E('invalid_cursor'), 404: E('not_found'), ...std },
  },
  postWebhookRedeliver: {
    id: 'post-webhook-redeliver', method: 'POST', path: '/api/webhooks/{id}/deliveries/{delivery_id}/redeliver', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'webhookQueue'],
    summary: 'Send a delivery again now, with the same Service-Delivery id (60 an hour per account)',
    rateLimit: { limit: 60, windowSeconds: 3600 }, params: wh.DeliveryParams,
    responses: { 202: { description: 'Queued', schema: wh.RedeliverResponse }, 404: E('not_found'), 409: E('conflict'), ...std },
  },
  postSchedule: {
    id: 'post-schedule', method: 'POST', path: '/api/schedule', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Schedule a post: the post fields plus run_at (ISO 8601 with offset, or next_slot); everything checkable is checked now',
    body: sch.ScheduleBody,
    responses: {
      200: { description: 'Scheduled', schema: sch.ScheduleCreated },
      400: E('invalid_request, invalid_run_at, not_connected, media_required, bad_media, no_free_slot, scheduled_limit_reached'),
      404: E('brand_not_found'), 409: E('ambiguous_brand, duplicate_post'), ...std,
    },
  },
  getSchedules: {
    id: 'get-schedules', method: 'GET', path: '/api/schedule', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'Scheduled posts by run_at, filtered by status, brand, date range (from/to) and deferred; paginated with cursor',
    query: sch.ScheduleListQuery,
    responses: { 200: { description: 'Schedules', schema: sch.SchedulesResponse }, 400: E('invalid_request'), ...std },
  },
  getSchedule: {
    id: 'get-schedule', method: 'GET', path: '/api/schedule/{id}', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'One scheduled post, with each network result once it ran',
    params: s.IdParams,
    responses: { 200: { description: 'Schedule', schema: sch.ScheduleDetail }, 404: E('not_found'), ...std },
  },
  patchSchedule: {
    id: 'patch-schedule', method: 'PATCH', path: '/api/schedule/{id}', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Change a scheduled post: a new run_at and/or post fields (409 once it is publishing or ran)',
    params: s.IdParams, body: sch.SchedulePatchBody,
    responses: {
      200: { description: 'Changed', schema: sch.ScheduleView }, 400: E('invalid_request, invalid_run_at, not_connected, no_free_slot'),
      404: E('not_found'), 409: E('schedule_publishing, schedule_not_pending, schedule_deferred'), ...std,
    },
  },
  deleteSchedule: {
    id: 'delete-schedule', method: 'DELETE', path: '/api/schedule/{id}', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'scheduler'],
    summary: 'Cancel a scheduled post (409 once it is publishing or ran)',
    params: s.IdParams,
    responses: { 200: { description: 'Canceled', schema: sch.ScheduleView }, 404: E('not_found'), 409: E('schedule_publishing, schedule_not_pending, schedule_deferred'), ...std },
  },
  postBulk: {
    id: 'post-bulk', method: 'POST', path: '/api/bulk', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Schedule up to 500 posts: JSON {posts: [...]} or text/csv; a report of accepted and rejected rows',
    body: sch.BulkBody, extraContentTypes: ['text/csv'], timeoutSeconds: 29, memoryMb: 1024,
    responses: { 200: { description: 'Per-row report', schema: sch.BulkResponse }, 400: E('too_many_rows, invalid_csv'), ...std },
  },
  postRecurring: {
    id: 'post-recurring', method: 'POST', path: '/api/recurring', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'A recurring post: the post fields plus cron (5 fields), timezone, optional starts_at and ends_at',
    body: sch.RecurringBody,
    responses: {
      200: { description: 'Created', schema: sch.RecurringView },
      400: E('invalid_cron, invalid_timezone, invalid_run_at, not_connected, scheduled_limit_reached'), 404: E('brand_not_found'), 409: E('ambiguous_brand'), ...std,
    },
  },
  getRecurringList: {
    id: 'get-recurring-list', method: 'GET', path: '/api/recurring', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'Recurring schedules, newest first, with their next run',
    responses: { 200: { description: 'Recurring schedules', schema: sch.RecurringListResponse }, ...std },
  },
  getRecurring: {
    id: 'get-recurring', method: 'GET', path: '/api/recurring/{id}', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'One recurring schedule with its next run (each run is listed by GET /api/schedule with its recurring_id)',
    params: s.IdParams,
    responses: { 200: { description: 'Recurring schedule', schema: sch.RecurringView }, 404: E('not_found'), ...std },
  },
  deleteRecurring: {
    id: 'delete-recurring', method: 'DELETE', path: '/api/recurring/{id}', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'scheduler'],
    summary: 'Stop a recurring schedule (runs already made stay)',
    params: s.IdParams,
    responses: { 200: { description: 'Canceled', schema: sch.RecurringView }, 404: E('not_found'), 409: E('recurring_not_active'), ...std },
  },
  postOauthUrl: {
    id: 'post-oauth-url', method: 'POST', path: '/api/oauth/{platform}/url', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt', 'oauthConfig'],
    summary: 'The sign-in URL of an OAuth network (tiktok, youtube, reddit, linkedin, facebook, instagram, x) for a brand; state bound to account, brand and 15 minutes, PKCE where the network takes it',
    params: o.OAuthPlatformParams, body: o.OAuthUrlBody, optionalBody: true,
    responses: {
      200: { description: 'The URL to open in a browser', schema: o.OAuthUrlResponse },
      400: E('not_oauth_platform, brand_required, invalid_redirect'), 404: E('brand_not_found'), 503: E('oauth_not_configured'), ...std,
    },
  },
  getOauthCallback: {
    id: 'get-oauth-callback', method: 'GET', path: '/api/oauth/{platform}/callback', tag: 'Connections', auth: 'open', grants: ['table', 'kms', 'oauthConfig'],
    summary: "The networks' redirect URI: exchanges the code, saves the connection (tokens encrypted) and shows the result, the page picker, or redirects (HTML). With ?start=<token> it is the one-use sign-in link of POST /api/oauth/{platform}/url: sets the browser's nonce cookie and 303s to the network",
    params: o.OAuthPlatformParams, query: o.OAuthCallbackQuery, rateLimit: { limit: 60, windowSeconds: 60 }, timeoutSeconds: 29,
    responses: {
      200: { description: 'Connected, or choose a page / business account (HTML)', contentType: 'text/html' },
      303: { description: 'Back to the connect page or to redirect_after' },
      400: { description: 'oauth_state_invalid, oauth_state_used, oauth_denied (HTML)' }, 410: { description: 'oauth_state_expired (HTML)' },
      502: { description: 'The network refused the code (HTML)' },
    },
  },
  postOauthPick: {
    id: 'post-oauth-pick', method: 'POST', path: '/api/oauth/{platform}/pick', tag: 'Connections', auth: 'open', grants: ['table', 'kms', 'oauthConfig'],
    summary: "The picker's answer: connects the chosen page / business account (form post from the picker page)",
    params: o.OAuthPlatformParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 },
    responses: { 200: { description: 'Connected (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the connect page or redirect_after' }, 400: { description: 'oauth_pick_invalid (HTML)' }, 410: { description: 'oauth_pick_expired (HTML)' } },
  },
  postConnectLink: {
    id: 'post-connect-link', method: 'POST', path: '/api/connect-link', tag: 'Connections', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'A hosted connect page (1 hour, no login) that connects networks into one brand: every network, or only `platform`',
    body: o.ConnectLinkBody, optionalBody: true,
    responses: { 200: { description: 'The link', schema: o.ConnectLinkResponse }, 400: E('invalid_request, brand_required'), 404: E('brand_not_found'), ...std },
  },
  getConnectPage: {
    id: 'get-connect-page', method: 'GET', path: '/connect/{token}', tag: 'Connections', auth: 'open', grants: ['table', 'oauthConfig'],
    summary: 'The hosted connect page of a connect link (HTML): every network with its state, OAuth buttons and credential forms',
    params: o.ConnectPageParams, query: o.ConnectPageQuery, rateLimit: { limit: 120, windowSeconds: 60 },
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Expired link (HTML)' } },
  },
  postConnectPageOauth: {
    id: 'post-connect-page-oauth', method: 'POST', path: '/connect/{token}/oauth/{platform}', tag: 'Connections', auth: 'open', grants: ['table', 'kmsEncrypt', 'oauthConfig'],
    summary: "The connect page's sign-in button: 303 to the network's authorize page (state bound to the link's brand)",
    params: o.ConnectFormParams, body: o.FormBody, optionalBody: true, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 },
    responses: { 303: { description: "To the network's sign-in" }, 403: { description: 'The link is for another network (HTML)' }, 410: { description: 'Expired link (HTML)' }, 503: { description: 'oauth_not_configured (HTML)' } },
  },
  postConnectPageCredentials: {
    id: 'post-connect-page-credentials', method: 'POST', path: '/connect/{token}/credentials/{platform}', tag: 'Connections', auth: 'open', grants: ['table', 'kmsEncrypt', 'oauthConfig'],
    summary: "The connect page's credential form: checked against the network and saved (encrypted) into the link's brand",
    params: o.ConnectFormParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 60 }, timeoutSeconds: 29,
    responses: { 303: { description: 'Back to the page, which shows the connection' }, 400: { description: 'invalid_credentials (the page with the message)' }, 410: { description: 'Expired link (HTML)' } },
  },
  getX: {
    id: 'get-x', method: 'GET', path: '/api/x', tag: 'Publishing', auth: 'key', scope: 'read', grants: ['table'],
    summary: "The X add-on: its credit rules, the plan's credits, used, left and the reset date",
    responses: { 200: { description: 'X credits', schema: o.XAddonResponse }, ...std },
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
  // --- Billing (issue 13) ---
  postBillingCheckout: {
    id: 'post-billing-checkout', method: 'POST', path: '/api/billing/checkout', tag: 'Billing', auth: 'key', grants: ['table', 'billingConfig'],
    summary: 'A hosted Stripe Checkout for a paid plan (monthly, or yearly 20% cheaper): open url to subscribe',
    body: bill.CheckoutBody, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      200: { description: 'The checkout page', schema: bill.BillingUrlResponse }, 400: E('Invalid plan or interval'),
      409: E('plan_already_active, subscription_exists (change plans in the portal)'), 502: E('billing_provider_error'),
      503: E('billing_unavailable: billing is not configured here (locally: POST /dev/plan)'), ...std,
    },
  },
  postBillingPortal: {
    id: 'post-billing-portal', method: 'POST', path: '/api/billing/portal', tag: 'Billing', auth: 'key', grants: ['table', 'billingConfig'],
    summary: 'The Stripe customer portal: change plan, card, cancel, invoices',
    rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      200: { description: 'The portal page', schema: bill.BillingUrlResponse }, 502: E('billing_provider_error'),
      503: E('billing_unavailable: billing is not configured here (locally: POST /dev/plan)'), ...std,
    },
  },
  getBilling: {
    id: 'get-billing', method: 'GET', path: '/api/billing', tag: 'Billing', auth: 'key', grants: ['table', 'billingConfig'],
    summary: 'The plan in force, the subscription, a change scheduled for the period end, a grace period, and every plan change',
    responses: { 200: { description: 'Billing overview', schema: bill.BillingOverviewResponse }, ...std },
  },
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
  postBillingStripeWebhook: {
    id: 'post-billing-stripe-webhook', method: 'POST', path: '/billing/stripe-webhook', tag: 'Billing', auth: 'open', grants: ['table', 'billingConfig'],
    summary: "Stripe's webhook: signature checked over the raw body (5 minutes' tolerance); each event applied once",
    rawBody: true,
    responses: {
      200: { description: 'Received (applied, or a repeat that changed nothing)', schema: bill.ProviderWebhookResponse },
      400: E('invalid_signature: missing, wrong or older than 5 minutes (nothing changed)'), 409: E('event_in_progress: retry later'),
      503: E('billing_unavailable'),
      },
    },
  // --- Dashboard: sign-in, session, pages (issue 16) ---
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
    responses: { 303: { description: 'Signed in: to the return path' }, 404: { description: 'Unknown link (HTML)' }, 410: { description: 'Used or expired link (HTML)' } },
  },
  postDashboardSignOut: {
    id: 'post-dashboard-sign-out', stack: 'Dashboard', method: 'POST', path: '/dashboard/sign-out', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Ends the session at once and clears the cookie',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, optionalBody: true,
    responses: { 200: { description: 'Signed out (HTML)', contentType: 'text/html' }, 403: E('session_required, csrf_failed') },
  },
  getDashboard: {
    id: 'get-dashboard', stack: 'Dashboard', method: 'GET', path: '/dashboard', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Overview: the plan and every usage limit as a bar (warning from 80 %); without a session, 303 to sign-in',
    query: d.EmptyQuery,
    responses: { 200: { description: 'Overview (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  getDashboardPlan: {
    id: 'get-dashboard-plan', stack: 'Dashboard', method: 'GET', path: '/dashboard/plan', tag: 'Dashboard', auth: 'session', grants: ['table', 'billingConfig'],
    summary: 'The plan page every upgrade_url points to: the plan table and what the account uses',
    query: d.PlanQuery,
    responses: { 200: { description: 'Plan (HTML)', contentType: 'text/html' }, 303: { description: 'To the sign-in page' } },
  },
  putGuardrails: {
    id: 'put-guardrails', method: 'PUT', path: '/api/guardrails/{kind}/{id}', tag: 'Guardrails', auth: 'session', grants: ['table'],
    summary: 'Set the limits of an API key or AI app (monthly cap, allowed networks and brands, always needs approval): dashboard session and CSRF only',
    params: g.GuardrailParams, body: g.GuardrailsBody,
    responses: {
      200: { description: 'The guardrails now in force', schema: g.GuardrailsResponse }, 400: E('Invalid input'),
      402: E('plan_feature: guardrails start on the starter plan'), 403: E('session_required (an API key), csrf_failed'), 404: E('key_not_found, app_not_found, brand_not_found'),
    },
  },
  // --- sandbox, strict requests and contract fixes (issue 10) ---
  postSignupConfirm: {
    id: 'post-signup-confirm', method: 'POST', path: '/api/signup/confirm', tag: 'Account', auth: 'open', grants: ['table'],
    summary: 'Confirm the email with the emailed token: verifies it and answers the first API key once (JSON {token}; the page posts a form)',
    body: s.ConfirmBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: { 200: { description: 'The API key, shown once', schema: s.ConfirmResponse }, 400: E('Invalid input'), 410: E('link_expired: used or expired'), 429: std[429] },
  },
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
    id: 'post-approval-client-link', method: 'POST', path: '/api/approvals/{id}/client-link', tag: 'Approvals', auth: 'key', grants: ['table'],
    summary: 'A signed single-use link for a client approver (no account needed), 72 hours; Pro and above',
    params: s.IdParams,
    responses: { 200: { description: 'The link', schema: a.ClientLinkResponse }, 402: E('plan_feature (pro)'), 404: E('approval_not_found'), 409: E('approval_decided'), ...std },
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
    id: 'post-dashboard-connections', method: 'POST', path: '/dashboard/connections', tag: 'Dashboard', auth: 'session', grants: ['table', 'kms', 'oauthConfig'],
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
    id: 'post-dashboard-branding', method: 'POST', path: '/dashboard/branding', tag: 'Dashboard', auth: 'session', grants: ['table'],
    summary: 'Branding page actions (form field action)',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES,
    responses: { 200: { description: 'The page with the outcome (HTML)', contentType: 'text/html' }, 303: { description: 'Back to the page' }, 403: E('session_required, csrf_failed') },
  },
  // --- MCP server (issue 11) ---
  postMcp: {
    id: 'post-mcp', stack: 'Mcp', method: 'POST', path: '/api/mcp', tag: 'MCP', auth: 'key', scope: 'read', handler: 'functions/mcp/handler.ts',
    extraMethods: ['GET', 'DELETE'], functionUrlOutput: 'McpUrl',
    grants: ['table', 'kms', 'kmsDecrypt', 'publishQueue', 'webhookQueue', 'scheduler', 'oauthConfig', 'ses', 'bedrock'], timeoutSeconds: 29, memoryMb: 1024,
    summary: 'The hosted MCP server: Streamable HTTP, stateless, JSON responses, 21 tools (send Accept: application/json, text/event-stream); GET and DELETE answer 405',
    responses: {
      200: { description: 'The JSON-RPC response' }, 202: { description: 'A notification or response accepted' },
      400: E('Invalid JSON-RPC'), 405: E('GET or DELETE: the server is stateless'), 406: { description: 'Accept lacks application/json or text/event-stream' }, ...std,
    },
  },
  getOauthProtectedResource: {
    id: 'get-oauth-protected-resource', stack: 'Mcp', method: 'GET', path: '/.well-known/oauth-protected-resource', tag: 'MCP', auth: 'open', grants: [],
    summary: "Protected resource metadata of the MCP server (RFC 9728): its URL and its authorization server",
    responses: { 200: { description: 'Metadata', schema: mo.ProtectedResourceMetadata } },
  },
  getOauthAuthorizationServer: {
    id: 'get-oauth-authorization-server', stack: 'Mcp', method: 'GET', path: '/.well-known/oauth-authorization-server', tag: 'MCP', auth: 'open', grants: [],
    summary: 'Authorization server metadata (RFC 8414): code flow with PKCE S256, dynamic registration, client ID metadata documents, revocation',
    responses: { 200: { description: 'Metadata', schema: mo.AuthorizationServerMetadata } },
  },
  postOauthRegister: {
    id: 'post-oauth-register', stack: 'Mcp', method: 'POST', path: '/oauth/register', tag: 'MCP', auth: 'open', grants: ['table'],
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
    id: 'post-oauth-token', stack: 'Mcp', method: 'POST', path: '/oauth/token', tag: 'MCP', auth: 'open', grants: ['table'],
    summary: 'Token endpoint: a code (PKCE S256) or a refresh token (rotated) for a 1-hour access token bound to the MCP URL',
    body: o.FormBody, extraContentTypes: o.FORM_TYPES, rateLimit: { limit: 120, windowSeconds: 60 },
    responses: { 200: { description: 'Tokens', schema: mo.TokenResponse }, 400: { description: 'invalid_grant, invalid_request, invalid_target, unsupported_grant_type', schema: mo.OAuthErrorBody }, 429: std[429] },
  },
  postOauthRevoke: {
    id: 'post-oauth-revoke', stack: 'Mcp', method: 'POST', path: '/oauth/revoke', tag: 'MCP', auth: 'open', grants: ['table'],
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
  // --- AI drafts (issue 12) ---
  postGenerate: {
    id: 'post-generate', method: 'POST', path: '/api/generate', tag: 'AI drafts', auth: 'key', scope: 'publish', grants: ['table', 'bedrock'],
    summary: "One prompt, one draft per network, each fitting the network (thread where it has them); pass a draft verbatim as per_platform. 8 a minute per account, plus the plan's AI drafts a day",
    body: ai.GenerateInput, timeoutSeconds: 29,
    responses: {
      200: { description: 'The drafts, the provider and model, and the usage', schema: ai.GenerateResponse },
      400: E('invalid_request (unknown or repeated networks)'), 404: E('brand_not_found'),
      401: std[401], 429: E('rate_limited (Retry-After), or ai_drafts_limit_reached (with upgrade_url)'),
      503: E('ai_unavailable: the provider failed, timed out or throttled (Retry-After); nothing was spent'),
    },
  },
  postWeek: {
    id: 'post-week', method: 'POST', path: '/api/week', tag: 'AI drafts', auth: 'key', scope: 'publish', grants: ['table', 'kms', 'scheduler', 'bedrock'],
    summary: "Seven days of drafts on the brand's posting slots, each with its run_at; schedule: true creates them as scheduled posts (per-day report). 3 an hour per account; counts one AI draft",
    body: ai.WeekInput, timeoutSeconds: 29, memoryMb: 1024,
    responses: {
      200: { description: 'The days with their drafts (and the scheduling report)', schema: ai.WeekResponse },
      400: E('invalid_request, invalid_start, no_free_slot'), 404: E('brand_not_found'), 409: E('ambiguous_brand'),
      401: std[401], 429: E('rate_limited (Retry-After), or ai_drafts_limit_reached (with upgrade_url)'),
      503: E('ai_unavailable (Retry-After); nothing was spent'),
    },
  },
  // --- Security and robustness sweep (issue 17) ---
  patchMe: {
    id: 'patch-me', method: 'PATCH', path: '/api/me', tag: 'Account', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Account settings: the https origins redirect_after may lead to (besides this service)',
    body: sec.PatchMeBody,
    responses: { 200: { description: 'Saved', schema: sec.PatchMeResponse }, 400: E('invalid_redirect_origin'), ...std },
  },
} as const satisfies Record<string, RouteDef>;

export const routeList: RouteDef[] = Object.values(routes);
