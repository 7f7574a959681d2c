import * as z from 'zod';
import { AppError } from '../../shared/domain/errors';
import { RESULT_CODES } from '../../shared/domain/result-codes';

/** The structuredContent of a failed tool call: the REST error body plus what happened and how to fix it. */
export const ToolFailure = z.object({ code: z.string(), error: z.string(), what: z.string(), fix: z.string() }).catchall(z.unknown());
export type ToolFailure = z.infer<typeof ToolFailure>;

/**
 * How an agent fixes each code, naming MCP tools (never a REST path): the API's own fix texts name REST routes, so
 * every code an MCP answer can carry (request failures and per-network result codes) has its MCP wording here.
 */
const FIX_BY_CODE: Record<string, string> = {
  invalid_request: 'Correct the fields named in issues (or in error) and call again.',
  caption_is_json: 'Send text as plain text, not a JSON object.',
  empty_text: 'Give text, a per_platform draft or media: there is nothing to publish.',
  brand_not_found: 'Call list_brands and pass one of its ids as brand_id.',
  brand_required: 'Pass brand_id: call list_brands to see them.',
  ambiguous_brand: 'Several brands have these networks connected: pass brand_id (list_brands).',
  brand_limit_reached: 'Upgrade the plan (upgrade_url) or use an existing brand (list_brands).',
  duplicate_post: 'Do not send it again: this post was already accepted (see post_id, get_post_status or list_posts).',
  not_connected: 'Connect the network first: give the person who owns the account the link of create_connect_link (brand_id, platform), then post again.',
  not_found: 'Check the id: list the items with the matching list_ tool.',
  rate_limited: 'Wait retry_after seconds, then call again.',
  plan_feature: 'Upgrade the plan (upgrade_url) to use this; get_usage shows the plan.',
  ai_unavailable: 'Write the text yourself and publish it with post_to_social or schedule_post.',
  invalid_run_at: 'Give run_at in ISO 8601 with an offset, in the future (e.g. 2026-12-01T09:00:00+01:00), or "next_slot".',
  invalid_cron: 'Give cron as 5 fields: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1-5").',
  invalid_timezone: 'Give an IANA timezone such as Europe/Paris.',
  no_free_slot: "Give run_at: the brand has no free posting slot (list_brands shows its slots).",
  scheduled_limit_reached: 'Wait for scheduled posts to run, cancel some with cancel_scheduled_post, or upgrade the plan.',
  schedule_publishing: 'It is being published now: follow it with get_post_status.',
  schedule_not_pending: 'It already ran or was canceled: nothing to cancel.',
  recurring_not_active: 'It is already stopped: nothing to do.',
  network_unavailable: 'The network did not answer: try again in a few minutes.',
  key_scope: 'Use an API key with the needed scope (the account owner makes keys in the dashboard).',
  platform_unavailable: 'Leave this network out of the post; list_platforms shows which networks are available.',
  media_required: 'Add video_url, photo_url or media[]: create_media_upload_link, then get_media_upload gives the media_url.',
  media_unreachable: 'Use a public direct link to the file, or create_media_upload_link then get_media_upload for a media_url.',
  bad_media: 'Check max_media and the accepted types with list_platforms (or the resource social://networks) and send fewer or other files.',
  text_too_long: 'Shorten the text, or send a shorter per_platform draft for this network (generate_posts drafts one that fits).',
  limit_reached: "Upgrade the plan (upgrade_url) or wait for the monthly reset (get_usage).",
  networks_per_post: 'Post to this network in a separate post_to_social call, or upgrade to send to every network at once.',
  rate_limited_deferred: 'Nothing to do: it is sent at run_at; follow it with get_post_status.',
  reauth_required: 'Reconnect this network: give the account owner the link of create_connect_link (brand_id, platform), then post again.',
  subreddit_required: 'Send subreddit (the community name without r/) with the post.',
  rejected: "Read error for the network's own reason, change the post, and send it again.",
  timed_out: 'Do not resend yet: the outcome follows; check it with get_post_status.',
  network_error: 'Try again later; nothing was published.',
  x_credits_exhausted: "Wait for the monthly reset shown by get_x_credits, or upgrade the plan.",
  invalid_credentials: 'Connect again through create_connect_link: the owner enters the credentials on that page.',
  oauth_platform: 'This network signs in with OAuth: give the account owner the link of create_connect_link (brand_id, platform).',
  platform_not_allowed: 'Leave this network out, or ask the account owner to allow it in the dashboard (API keys → guardrails).',
  pending_approval: 'Nothing to do by tool: the account owner approves or rejects it in the dashboard (dashboard_url); follow it with get_post_status.',
  internal_error: 'Try again; if it keeps failing, report request_id.',
  origin_not_allowed: 'Serve the client from an allow-listed origin (MCP_ALLOWED_ORIGINS), or call without a browser.',
  link_expired: 'Make a new link with create_media_upload_link.',
  link_used: 'The link was used: get_media_upload with its token gives the media_url; make another with create_media_upload_link for a new file.',
  upload_mismatch: 'The file did not match what the page declared: make a new link with create_media_upload_link.',
};

const WHAT_BY_STATUS: Record<number, string> = {
  400: 'The input was refused; nothing was done.',
  401: 'The credentials were not accepted.',
  402: 'The plan does not include this.',
  403: 'This caller may not do this.',
  404: 'Nothing with that id exists in this account.',
  409: 'This conflicts with something already done.',
  410: 'It expired or was already used.',
  413: 'The input is too large.',
  429: 'Too many calls: a rate limit was reached.',
  503: 'A service this needs is unavailable; nothing was done.',
};

const WHAT_BY_CODE: Record<string, string> = {
  invalid_request: WHAT_BY_STATUS[400]!, brand_not_found: 'No brand with that id exists in this account.',
  duplicate_post: 'The same post was sent less than 2 minutes ago, or with an idempotency_key already used.',
  pending_approval: "An approval rule holds the post for the account owner's decision; nothing was sent yet.",
  key_scope: WHAT_BY_STATUS[403]!, rate_limited: WHAT_BY_STATUS[429]!, internal_error: 'The server failed unexpectedly.',
  origin_not_allowed: 'A browser page from another origin called the MCP server.',
};

/** Every code explain_error knows. */
export const KNOWN_CODES: readonly string[] = [...new Set([...Object.keys(FIX_BY_CODE), ...Object.keys(RESULT_CODES)])].sort();

/** The MCP fix of a code (naming tools), or a generic one. */
export const mcpFix = (code: string | undefined, status = 400): string =>
  (code && FIX_BY_CODE[code]) ?? (status >= 500 ? 'Try again later.' : 'Read error, correct the call and try again.');

/** What a code means and how an agent fixes it; `known` false for a code this server never answers. */
export function explainCode(code: string): { code: string; known: boolean; what: string; fix: string; doc: string } {
  const known = KNOWN_CODES.includes(code);
  const what = (RESULT_CODES as Record<string, { what: string }>)[code]?.what ?? WHAT_BY_CODE[code]
    ?? (known ? 'The call was refused; nothing was done.' : 'This code is not one this server answers.');
  return { code, known, what, fix: known ? mcpFix(code) : 'Check the spelling: the resource social://errors lists every code.', doc: `social://errors/${encodeURIComponent(code)}` };
}

/** A network result with its fix in MCP words (the REST answer names REST routes). */
export function withMcpFix<T extends { code?: string; fix?: string }>(r: T): T {
  return r.code && r.fix !== undefined ? { ...r, fix: mcpFix(r.code) } : r;
}

/** Maps a domain failure (AppError) to the tool-level failure an agent can act on. */
export function toolFailure(err: AppError): ToolFailure {
  return {
    ...err.details,
    code: err.code,
    error: err.message,
    what: WHAT_BY_CODE[err.code] ?? WHAT_BY_STATUS[err.status] ?? 'The call failed; nothing was done.',
    fix: mcpFix(err.code, err.status),
  };
}

/** The failure of an unexpected error: nothing internal is exposed. */
export const internalFailure = (requestId: string): ToolFailure => ({
  code: 'internal_error', error: 'Internal error: nothing was changed; try again', what: 'The server failed unexpectedly.',
  fix: mcpFix('internal_error'), request_id: requestId,
});

export const invalidInput = (issues: Array<{ path: string; message: string }>): ToolFailure => ({
  code: 'invalid_request', error: 'The tool input is invalid', what: WHAT_BY_STATUS[400]!, fix: mcpFix('invalid_request'), issues,
});

/** An input key no schema can name (`__proto__`): refused with the REST API's code, never dropped. */
export const unknownField = (fields: string[]): ToolFailure => ({
  code: 'unknown_field', error: `Unknown field: ${fields.join(', ')}`, what: WHAT_BY_STATUS[400]!, fix: mcpFix('invalid_request'), fields,
});
