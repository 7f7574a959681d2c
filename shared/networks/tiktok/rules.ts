import type { Failure, PublishContent } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { field, str } from '../oauth-tokens';
import { PRIVACY_PREFERENCE, checkContent, type TikTokPrivacy } from './limits';

export { checkContent, type TikTokPrivacy };

/** TikTok's local rules: the privacy level to ask for, and the sorting of error answers (what a post may hold: limits.ts). */

/** The privacy level for content.privacy among the creator's options; a Failure when the creator offers none of them. */
export function choosePrivacy(privacy: PublishContent['privacy'], options: string[]): TikTokPrivacy | Failure {
  const wanted = PRIVACY_PREFERENCE[privacy ?? 'public'];
  const found = wanted.find((level) => options.includes(level));
  if (found) return found;
  return rejected(`tiktok offers this account the privacy levels ${options.join(', ') || '(none)'}; "${privacy ?? 'public'}" needs ${wanted.join(' or ')}`
    + (options.length === 1 && options[0] === 'SELF_ONLY' ? ' (an app that has not passed TikTok\'s audit can only post privately: send privacy "private")' : ''));
}

/** TikTok's audit rule in plain words: an unaudited app posts SELF_ONLY (private) only. */
const UNAUDITED = {
  what: 'This TikTok app has not passed TikTok\'s audit, so TikTok lets it publish private (SELF_ONLY) posts only.',
  fix: 'Send privacy "private" (or per_platform.tiktok.privacy_level "SELF_ONLY") until the app passes TikTok\'s audit; the post can be made public in the TikTok app.',
};

/** A privacy_level the creator does not offer: rejected listing the levels offered (and the audit rule when it applies). */
export function privacyRefused(asked: string, options: string[]): Failure {
  const unaudited = options.length === 1 && options[0] === 'SELF_ONLY';
  return {
    ok: false, kind: 'rejected', code: 'rejected',
    error: `tiktok offers this account the privacy levels ${options.join(', ') || '(none)'}; ${asked} is not one of them`,
    ...(unaudited ? UNAUDITED : {
      what: `TikTok does not offer the privacy level ${asked} to this account.`,
      fix: `Send per_platform.tiktok.privacy_level as one of ${options.join(', ')}.`,
    }),
  };
}

const REAUTH = new Set(['access_token_invalid', 'scope_not_authorized', 'scope_permission_missed', 'auth_removed']);
const BAD_MEDIA = new Set([
  'file_format_check_failed', 'duration_check_failed', 'frame_rate_check_failed', 'picture_size_check_failed',
  'invalid_file_upload', 'video_format_check_failed', 'photo_format_check_failed',
]);
const UNREACHABLE = new Set(['video_pull_failed', 'photo_pull_failed', 'url_ownership_unverified']);

/**
 * A TikTok error code (the envelope's error.code, or a failed publish's fail_reason) as a Failure, or undefined when
 * the code is not one TikTok documents (the caller then sorts by HTTP status).
 */
export function codeFailure(code: string, message: string, retryAfter = 60): Failure | undefined {
  if (REAUTH.has(code)) return { ok: false, kind: 'reauth', error: `${message}; sign in to tiktok again` };
  if (code === 'rate_limit_exceeded') return { ok: false, kind: 'rate_limited', retry_after: retryAfter, error: message };
  // The app's daily cap of distinct posting users: it lifts within the day.
  if (code === 'reached_active_user_cap') return { ok: false, kind: 'rate_limited', retry_after: 3600, error: message };
  if (BAD_MEDIA.has(code)) return rejected(message, 'bad_media');
  if (UNREACHABLE.has(code)) {
    const hint = code === 'url_ownership_unverified' ? ' (TikTok pulls media only from URL prefixes verified for the app in its developer portal)' : '';
    return rejected(`${message}${hint}`, 'media_unreachable');
  }
  if (code === 'internal_error' || code === 'internal') return { ok: false, kind: 'transient', error: message };
  if (code === 'unaudited_client_can_only_post_to_private_accounts') {
    return { ...(rejected(message) as Extract<Failure, { kind: 'rejected' }>), ...UNAUDITED };
  }
  if (code.startsWith('spam_risk') || code === 'privacy_level_option_mismatch' || code === 'invalid_params'
    || code === 'unaudited_client_can_only_post_to_private_accounts' || code === 'app_version_check_failed' || code === 'publish_cancelled') {
    return rejected(message);
  }
  return undefined;
}

/** The envelope's error code; 'ok' on success. */
export const errorCode = (res: HttpResult): string | undefined => str(field(field(res.json, 'error'), 'code'));

/** True when the answer is a 2xx envelope with error.code "ok" (or no error object at all). */
export function succeeded(res: HttpResult): boolean {
  const code = errorCode(res);
  return res.status >= 200 && res.status < 300 && (code === undefined || code === 'ok');
}

/** Sorts a failed Content Posting API answer: documented error codes first, then the HTTP status. */
export function tiktokFailure(res: HttpResult, what: string, now: number): Failure {
  const code = errorCode(res);
  const text = str(field(field(res.json, 'error'), 'message'));
  const detail = [code, text].filter(Boolean).join(': ') || (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const message = `tiktok ${what} failed (HTTP ${res.status})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  const retryAfter = retryAfterSeconds(res.headers, now) ?? 60;
  return (code && code !== 'ok' ? codeFailure(code, message, retryAfter) : undefined) ?? classifyStatus(res, message, retryAfter);
}
