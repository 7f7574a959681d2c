/**
 * Per-network result codes (spec §7, open list) with their plain-words `what` and `fix`, written once per code.
 * Every failed network result carries both.
 */
export const RESULT_CODES = {
  not_connected: { what: 'This network is not connected in the brand used for the post.', fix: 'Connect it with POST /api/connect (or an OAuth link / connect link) in that brand, then post again.' },
  platform_unavailable: { what: 'This network cannot be used right now.', fix: 'Leave it out of the post; GET /api/platforms shows which networks are available.' },
  media_required: { what: 'This network needs media: TikTok and Instagram need a photo or video, YouTube needs a video.', fix: 'Add video_url, photo_url or media[] (upload with POST /api/media/upload-url if needed).' },
  media_unreachable: { what: 'A media link could not be downloaded: it is private, expired, deleted, or a web page instead of a file.', fix: 'Use a public direct link to the file, or upload it with POST /api/media/upload-url and use the media_url.' },
  bad_media: { what: 'The media does not fit this network: too many items or an unsupported type.', fix: 'Check max_media and the accepted types in GET /api/platforms and send fewer or other files.' },
  caption_is_json: { what: 'The text was a JSON object instead of plain text.', fix: 'Send the caption as a plain string in text.' },
  empty_text: { what: 'There is nothing to publish for this network.', fix: 'Send text, a per_platform draft, or media.' },
  text_too_long: { what: 'The text is longer than this network allows; nothing was cut or sent.', fix: 'Shorten the text, or send a shorter per_platform draft for this network.' },
  limit_reached: { what: "The month's post allowance of the plan is used up.", fix: 'Upgrade the plan (upgrade_url) or wait for the monthly reset.' },
  networks_per_post: { what: 'The Free plan sends 2 networks per post; this one was held, not sent, and spent nothing.', fix: 'Post to this network separately, or upgrade to send to every network at once.' },
  plan_feature: { what: 'This network or feature is not included in the current plan.', fix: 'Upgrade the plan (upgrade_url).' },
  rate_limited: { what: 'The network asked to wait before the next post and the post could not be queued.', fix: 'Retry after retry_after seconds.' },
  rate_limited_deferred: { what: 'The network asked to wait; the post is queued for right after the wait.', fix: 'Nothing to do: it is sent at run_at and a webhook tells the outcome.' },
  network_budget_deferred: { what: "This account has used the network's own publishing quota for now (Threads 250 posts a day, TikTok 6 uploads a minute, X 200 posts in 15 minutes and 300 in 3 hours, YouTube 100 uploads a day per deployment); the post is queued for when the quota has room.", fix: 'Nothing to do: it is sent at run_at and a webhook tells the outcome.' },
  network_budget_exhausted: { what: "This account has used the network's own publishing quota, and the post was already deferred as often as allowed; nothing was sent.", fix: 'Send it again after retry_after seconds (error names the time the quota has room again), or spread posts to this account over more time.' },
  reauth_required: { what: 'The network says the sign-in or credentials expired or were revoked.', fix: 'Reconnect this network: open the reconnect_url of the connection.reauth_required event, or make a connect link with POST /api/connect-link {brand_id, platform} (OAuth networks also through POST /api/oauth/{platform}/url, credential networks through POST /api/connect), then post again.' },
  subreddit_required: { what: 'Reddit posts need a subreddit.', fix: 'Send subreddit (the community name without r/) with the post.' },
  rejected: { what: 'The network refused the post.', fix: 'Read error for the network’s own reason, change the post, and send it again.' },
  timed_out: { what: 'The network did not answer before the reply was due; the post may or may not have been published.', fix: 'Do not resend yet: the outcome arrives by webhook and GET /api/post/status shows it.' },
  outcome_unknown: { what: 'The worker sending to this network stopped before the network answered, and the network could not be read back to check whether the post appeared (error says why).', fix: 'Look for the post on the network; if it is not there, send it again to this network only.' },
  network_error: { what: 'The network failed with a server error or could not be reached.', fix: 'Try again later; nothing was published.' },
  x_credits_exhausted: { what: "The month's X credits are used up.", fix: 'Wait for the monthly reset shown in GET /api/x, or upgrade the plan.' },
  invalid_credentials: { what: 'The network refused these credentials, or they do not have the right form.', fix: 'Check each field against GET /api/platforms (fields) and the network’s own settings page, then connect again.' },
  network_unavailable: { what: 'The network could not be reached to check the credentials; nothing was saved.', fix: 'Try again in a minute.' },
  oauth_platform: { what: 'This network connects through OAuth, not with credentials.', fix: 'Get a sign-in link from POST /api/oauth/{platform}/url, or send the person a connect link (POST /api/connect-link).' },
  platform_not_allowed: { what: 'The guardrails of the API key (or AI app) that sent this post do not allow this network; it was not sent and spent nothing.', fix: 'Leave this network out, or ask the account owner to allow it in the dashboard (API keys → guardrails).' },
  approval_rejected: { what: 'The post was held for approval and the approver rejected it: nothing was sent and nothing was spent.', fix: 'Read the note of the decision, change the post and send it again.' },
  approval_expired: { what: 'The post was held for approval and nobody decided within 7 days: nothing was sent and nothing was spent.', fix: 'Send the post again, and approve it in the dashboard (Approvals) in time.' },
  internal_error: { what: 'Something failed on our side while sending to this network.', fix: 'Try again; if it keeps failing, contact support with the post id.' },
} as const satisfies Record<string, { what: string; fix: string }>;

export type ResultCode = keyof typeof RESULT_CODES;

export function explain(code: string): { what: string; fix: string } {
  return Object.hasOwn(RESULT_CODES, code) ? (RESULT_CODES as Record<string, { what: string; fix: string }>)[code] : RESULT_CODES.rejected;
}
