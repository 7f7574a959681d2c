import { createHash } from 'node:crypto';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { classifyStatus, guarded, jsonInit, request, type HttpResult } from '../http';
import { checkSlack, slackText } from './limits';
import { createSlackVerifier, parseWebhookUrl, type SlackWebhook } from './verify-credentials';

export { slackText };
export { parseWebhookUrl, type SlackWebhook };

/** Slack's limit for the text of one section block. */
export const SLACK_SECTION_LIMIT = 3000;

/** Slack's mrkdwn control characters: only &, < and > are escaped. */
const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Escaped text cut into pieces of at most `limit` characters, never inside an escape or a surrogate pair. */
export function sectionChunks(text: string, limit = SLACK_SECTION_LIMIT): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const ch of text) {
    const piece = escapeMrkdwn(ch);
    if (current.length + piece.length > limit) { chunks.push(current); current = ''; }
    current += piece;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Slack webhooks return no message id: a stable id from the post's idempotency key (same post → same id). */
export const slackMessageId = (sendKey: string): string =>
  `slack-${createHash('sha256').update(sendKey).digest('hex').slice(0, 32)}`;

const REAUTH_TOKENS = /^(no_service|no_team|invalid_token|team_disabled|action_prohibited|channel_not_found|channel_is_archived|user_not_found|no_active_hooks|posting_to_general_channel_denied)$/;

/** Sorts a failed webhook answer by Slack's plain-text error token and status; the webhook URL is never echoed. */
export function classifySlack(res: HttpResult): Failure {
  const token = res.text.trim().slice(0, 100) || `HTTP ${res.status}`;
  const message = `Slack webhook refused the post (${res.status}): ${token}`;
  if (res.status === 429) return classifyStatus(res, message, 30);
  if (REAUTH_TOKENS.test(token) || res.status === 403 || res.status === 404 || res.status === 410 || res.status === 401) {
    return { ok: false, kind: 'reauth', error: `${message} — the webhook was revoked or its channel is gone; reconnect Slack with a new webhook URL` };
  }
  return classifyStatus(res, message);
}

/**
 * Slack incoming-webhook adapter (credential: webhook_url).
 * verify makes no network call: an incoming webhook cannot be checked without posting to the channel, so only the
 * URL shape (/services/<T…>/<B…>/<secret>) is checked; handle is 'slack webhook <T…>', and team_id is added to the
 * normalised credentials.
 * publish: `POST <webhook>` JSON {text, blocks:[section mrkdwn (split at 3000 chars), image block for an image]};
 * a video URL is added to the text for Slack to unfurl. Slack answers 200 "ok" with no message id or permalink, so
 * the result id is derived from content.send_key and url is the workspace link
 * https://slack.com/app_redirect?team=<T…> (the message's own link is unknown).
 * Failures (plain-text bodies): 429 → rate_limited (Retry-After); 403 action_prohibited, 404 no_service /
 * channel_not_found, 410 channel_is_archived, invalid_token / no_team → reauth; 400 invalid_payload / no_text and
 * other 4xx → rejected; 5xx / network → transient; deadline → timeout.
 */
export function createSlackAdapter(): NetworkAdapter {
  const { verify } = createSlackVerifier();

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const hook = parseWebhookUrl(ctx.credentials.webhook_url ?? '');
    if (!hook) return { ok: false, kind: 'reauth', error: 'The stored webhook_url is not a Slack incoming webhook URL; reconnect Slack' };
    const bad = checkSlack(content);
    if (bad) return bad;
    const text = slackText(content);
    const image = content.media.find((m) => m.kind === 'image');
    const blocks: Array<Record<string, unknown>> = text.trim()
      ? sectionChunks(text).map((chunk) => ({ type: 'section', text: { type: 'mrkdwn', text: chunk } }))
      : [];
    if (image) blocks.push({ type: 'image', image_url: image.url, alt_text: content.title || 'image' });
    // `text` is the notification fallback shown where blocks are not (Slack requires it to be non-empty).
    const body = { text: text.trim() ? escapeMrkdwn(text) : escapeMrkdwn(image?.url ?? ''), blocks };
    return guarded(async () => {
      const res = await request(ctx, hook.url, jsonInit('POST', body, { accept: 'text/plain, application/json' }));
      if (res.status < 200 || res.status >= 300) return classifySlack(res);
      const team = ctx.credentials.team_id || hook.team;
      return { ok: true as const, status: 'published' as const, id: slackMessageId(content.send_key), url: `https://slack.com/app_redirect?team=${encodeURIComponent(team)}` };
    });
  }

  return { name: 'slack', verify, check: checkSlack, publish };
}
