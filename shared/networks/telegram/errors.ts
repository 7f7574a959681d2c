import type { Failure, NetworkContext } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { isRecord } from '../../domain/values';

/** The Bot API envelope: `{ok:true, result}` or `{ok:false, error_code, description, parameters}`. */
export interface TelegramEnvelope {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export function envelope(res: HttpResult): TelegramEnvelope | undefined {
  const j = res.json;
  if (!isRecord(j) || typeof j.ok !== 'boolean') return undefined;
  const p = isRecord(j.parameters) ? j.parameters : undefined;
  return {
    ok: j.ok,
    result: j.result,
    error_code: typeof j.error_code === 'number' ? j.error_code : undefined,
    description: typeof j.description === 'string' ? j.description : undefined,
    parameters: p && {
      retry_after: typeof p.retry_after === 'number' ? p.retry_after : undefined,
      migrate_to_chat_id: typeof p.migrate_to_chat_id === 'number' ? p.migrate_to_chat_id : undefined,
    },
  };
}

const MEDIA_UNREACHABLE = /wrong file identifier\/http url specified|failed to get http url content|wrong type of the web page content/i;
const BAD_MEDIA = /photo_invalid_dimensions|image_process_failed|wrong_file|file is too big|photo_save_file_invalid|video_content_type_invalid/i;
const TOO_LONG = /message is too long|caption is too long|message_too_long|media_caption_too_long/i;

/**
 * Sorts a failed Bot API answer. `what` names the step (e.g. 'sendMessage') for the message; the bot token never
 * appears in it (Telegram's descriptions do not echo it).
 */
export function classifyTelegram(res: HttpResult, what: string): Failure {
  const env = envelope(res);
  const code = env?.error_code ?? res.status;
  const desc = env?.description ?? (res.text.slice(0, 200) || `HTTP ${res.status}`);
  const message = `Telegram ${what} failed (${code}): ${desc}`;
  if (code === 429 || res.status === 429) {
    const wait = env?.parameters?.retry_after ?? retryAfterSeconds(res.headers, res.at) ?? 30;
    return { ok: false, kind: 'rate_limited', retry_after: Math.max(1, Math.ceil(wait)), error: message };
  }
  if (code === 401 || code === 404) return { ok: false, kind: 'reauth', error: `${message} — the bot token is invalid or revoked; create a new one with @BotFather` };
  if (code === 403) return { ok: false, kind: 'reauth', error: `${message} — add the bot to the chat (as an admin allowed to post, for channels)` };
  if (code === 400) {
    if (/chat not found/i.test(desc)) return { ok: false, kind: 'reauth', error: `${message} — check chat_id and that the bot was added to that chat` };
    if (MEDIA_UNREACHABLE.test(desc)) return rejected(message, 'media_unreachable');
    if (BAD_MEDIA.test(desc)) return rejected(message, 'bad_media');
    if (TOO_LONG.test(desc)) return rejected(message, 'text_too_long');
    return rejected(message);
  }
  return classifyStatus({ ...res, status: code >= 400 ? code : res.status }, message);
}

/**
 * Waits for the chat's pacing slot. ctx.pace rejects when the wait would pass the deadline; what it rejects with
 * is the host's business, so a Failure-shaped value or an error carrying a retry-after is turned into rate_limited
 * and anything else is rethrown.
 */
export async function paced(ctx: NetworkContext, key: string, spacingMs: number): Promise<Failure | undefined> {
  let wait: number;
  try {
    wait = await ctx.pace(key, spacingMs);
  } catch (err) {
    if (isRecord(err) && err.ok === false && typeof err.kind === 'string') return err as unknown as Failure;
    const secs = isRecord(err) ? (err.retryAfter ?? err.retry_after) : undefined;
    if (typeof secs === 'number') {
      return { ok: false, kind: 'rate_limited', retry_after: Math.max(1, Math.ceil(secs)), error: 'Telegram posts to this chat are spaced out; the next free slot is past the deadline' };
    }
    throw err;
  }
  if (wait > 0) await ctx.sleep(wait);
  return undefined;
}
