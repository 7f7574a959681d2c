import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request, type HttpResult } from '../http';
import { trimBase } from '../../domain/values';
import { classifyTelegram, envelope } from './errors';
import { checkTelegram } from './limits';

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const GONE = /message to delete not found|message to edit not found|message can't be deleted|message_id_invalid/i;
const UNCHANGED = /message is not modified/i;

/**
 * Deleting and editing a sent message (Telegram Bot API, core.telegram.org/bots/api#updating-messages):
 * `POST /bot<token>/deleteMessage {chat_id, message_id}`; `editMessageText {chat_id, message_id, text, parse_mode}` for
 * a text message, `editMessageCaption {…, caption}` for a photo or video. "message to delete not found" counts as
 * deleted; "message is not modified" (the same text) as edited. A bot can delete its messages for 48 hours only:
 * Telegram's "message can't be deleted" is answered as rejected with its words.
 */
export function createTelegramManagement({ apiBase = 'https://api.telegram.org' }: { apiBase?: string } = {}): Required<PostManagement> {
  const base = trimBase(apiBase);
  const call = (ctx: NetworkContext, method: string, body: Record<string, unknown>): Promise<HttpResult> =>
    request(ctx, `${base}/bot${(ctx.credentials.bot_token ?? '').trim()}/${method}`, jsonInit('POST', body));
  const ok = (res: HttpResult) => res.status >= 200 && res.status < 300 && !!envelope(res)?.ok;
  const chatId = (ctx: NetworkContext) => (ctx.credentials.chat_id ?? '').trim();

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const res = await call(ctx, 'deleteMessage', { chat_id: chatId(ctx), message_id: Number(ref.id) });
    if (ok(res)) return { ok: true };
    const description = envelope(res)?.description ?? '';
    if (/message to delete not found/i.test(description)) return { ok: true };
    if (GONE.test(description)) return rejected(`Telegram deleteMessage: ${description} (bots can delete their messages for 48 hours)`);
    return classifyTelegram(res, 'deleteMessage');
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const invalid = checkTelegram(content);
    if (invalid) return invalid;
    const text = escapeHtml(content.text);
    const [method, body] = content.media.length
      ? ['editMessageCaption', { chat_id: chatId(ctx), message_id: Number(ref.id), caption: text, parse_mode: 'HTML' }] as const
      : ['editMessageText', { chat_id: chatId(ctx), message_id: Number(ref.id), text, parse_mode: 'HTML' }] as const;
    const res = await call(ctx, method, body);
    const description = envelope(res)?.description ?? '';
    if (ok(res) || UNCHANGED.test(description)) return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
    if (/message to edit not found/i.test(description)) return rejected('Telegram no longer has this message (it was deleted in the chat)');
    return classifyTelegram(res, method);
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}
