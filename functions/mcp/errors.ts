import * as z from 'zod';
import { AppError } from '../../shared/domain/errors';

/** The structuredContent of a failed tool call: the REST error body plus what happened and how to fix it. */
export const ToolFailure = z.object({ code: z.string(), error: z.string(), what: z.string(), fix: z.string() }).catchall(z.unknown());
export type ToolFailure = z.infer<typeof ToolFailure>;

const FIX_BY_CODE: Record<string, string> = {
  invalid_request: 'Correct the fields named in issues (or in error) and call again.',
  caption_is_json: 'Send text as plain text, not a JSON object.',
  empty_text: 'Give text, a title or media: there is nothing to publish.',
  brand_not_found: 'Call list_brands and pass one of its ids as brand_id.',
  brand_required: 'Pass brand_id: call list_brands to see them.',
  ambiguous_brand: 'Several brands have these networks connected: pass brand_id.',
  brand_limit_reached: 'Upgrade the plan (upgrade_url) or use an existing brand.',
  duplicate_post: 'Do not send it again: this post was already accepted (see post_id, get_post_status or list_posts).',
  not_connected: 'Connect the network first: create_connect_link gives a page for the account owner.',
  not_found: 'Check the id: list the items with the matching list_ tool.',
  rate_limited: 'Wait retry_after seconds, then call again.',
  plan_feature: 'Upgrade the plan (upgrade_url) to use this.',
  ai_unavailable: 'Write the text yourself and publish it with post_to_social or schedule_post.',
  invalid_run_at: 'Give run_at in ISO 8601 with an offset, in the future (or "next_slot").',
  invalid_cron: 'Give cron as 5 fields: minute hour day-of-month month day-of-week.',
  invalid_timezone: 'Give an IANA timezone such as Europe/Paris.',
  no_free_slot: "Set the brand's posting slots or give run_at.",
  scheduled_limit_reached: 'Wait for scheduled posts to run, cancel some, or upgrade the plan.',
  schedule_publishing: 'It is being published now: follow it with get_post_status.',
  schedule_not_pending: 'It already ran or was canceled: nothing to cancel.',
  recurring_not_active: 'It is already stopped: nothing to do.',
  network_unavailable: 'The network did not answer: try again in a few minutes.',
  key_scope: 'Use an API key with the needed scope.',
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

/** Maps a domain failure (AppError) to the tool-level failure an agent can act on. */
export function toolFailure(err: AppError): ToolFailure {
  return {
    ...err.details,
    code: err.code,
    error: err.message,
    what: WHAT_BY_STATUS[err.status] ?? 'The call failed; nothing was done.',
    fix: FIX_BY_CODE[err.code] ?? (err.status >= 500 ? 'Try again later.' : 'Read error, correct the call and try again.'),
  };
}

/** The failure of an unexpected error: nothing internal is exposed. */
export const internalFailure = (requestId: string): ToolFailure => ({
  code: 'internal_error', error: 'Internal error: nothing was changed; try again', what: 'The server failed unexpectedly.',
  fix: 'Try again; if it keeps failing, report request_id.', request_id: requestId,
});

export const invalidInput = (issues: Array<{ path: string; message: string }>): ToolFailure => ({
  code: 'invalid_request', error: 'The tool input is invalid', what: WHAT_BY_STATUS[400]!, fix: FIX_BY_CODE.invalid_request!, issues,
});
