import { telegramMessageRef } from './post-ref';
import type { NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, rejected } from '../http';
import { classifyTelegram, envelope, paced } from './errors';
import { isRecord, trimBase } from '../../domain/values';
import { checkTelegram } from './limits';
import { createTelegramManagement } from './manage';
import { asChat, botCall, createTelegramVerifier, credentialError, normalise, okResult } from './verify-credentials';


export interface TelegramAdapterOptions {
  /** Bot API origin; the default is the real one, tests point it at a loopback fake. */
  apiBase?: string;
}

/** Text for parse_mode HTML: only &, < and > need escaping. */
export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 3 s between posts for groups and supergroups (20 a minute), 1 s for channels and private chats. */
export function spacingFor(credentials: Record<string, string>): number {
  const type = credentials.chat_type;
  if (type) return type === 'group' || type === 'supergroup' ? 3000 : 1000;
  const id = credentials.chat_id ?? '';
  return /^-\d+$/.test(id) && !id.startsWith('-100') ? 3000 : 1000;
}

/** https://t.me/<username>/<id> for public chats, https://t.me/c/<id without -100>/<id> for private channels/supergroups; '' when Telegram has no message link (basic groups, private chats). */
export function messageUrl(chat: { id?: number | string; username?: string }, messageId: number | string): string {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  const id = String(chat.id ?? '');
  if (id.startsWith('-100')) return `https://t.me/c/${id.slice(4)}/${messageId}`;
  return '';
}

/**
 * Telegram Bot API adapter (bot token + chat id).
 * Endpoints: `POST {apiBase}/bot<token>/getMe` and `/getChat` (verify), `/sendMessage` (text, parse_mode HTML, escaped),
 * `/sendPhoto` / `/sendVideo` (one media item by URL, text as caption; Telegram has no alt-text field, so media[].alt
 * is not sent). reply_to → `reply_parameters: {message_id}` (a message of the connected chat). Posts to one chat are paced through
 * ctx.pace('telegram:<chat_id>'): 3 s for groups/supergroups, 1 s otherwise.
 * Failures: 429 → rate_limited (parameters.retry_after); 401/404 (bad token), 403 (bot kicked / not admin) and
 * "chat not found" → reauth; 400 "wrong file identifier/HTTP URL specified" / "failed to get HTTP URL content" →
 * media_unreachable; other 400 → rejected with Telegram's description; 5xx / network → transient; deadline → timeout.
 * A 400 with migrate_to_chat_id (group upgraded to a supergroup) is retried once on the new chat id.
 */
export function createTelegramAdapter({ apiBase = 'https://api.telegram.org' }: TelegramAdapterOptions = {}): NetworkAdapter {
  const base = trimBase(apiBase);

  const call = botCall(base);
  const { verify } = createTelegramVerifier({ apiBase });

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const creds = normalise(ctx.credentials);
    const bad = credentialError(creds) ?? checkTelegram(content);
    if (bad) return bad;
    const item = content.media[0];
    const text = escapeHtml(content.text);
    const method = !item ? 'sendMessage' : item.kind === 'image' ? 'sendPhoto' : 'sendVideo';
    const replyTo = content.options?.reply_to !== undefined ? telegramMessageRef(content.options.reply_to) : undefined;
    if (content.options?.reply_to !== undefined && !replyTo) return rejected(`telegram reply_to: ${content.options.reply_to} is not a message link or id`);
    const otherChat = replyTo?.chat !== undefined && (replyTo.chat.startsWith('c/')
      ? creds.chat_id !== `-100${replyTo.chat.slice(2)}`
      : !!creds.chat_username && replyTo.chat.toLowerCase() !== creds.chat_username.toLowerCase());
    if (otherChat) {
      return rejected(`telegram reply_to: the message is in another chat than the connected one (${creds.chat_id}); a bot replies only within its chat`);
    }
    const reply = replyTo ? { reply_parameters: { message_id: replyTo.id } } : {};
    const body = (chatId: string): Record<string, unknown> => {
      if (!item) return { chat_id: chatId, text, parse_mode: 'HTML', ...reply };
      const b: Record<string, unknown> = { chat_id: chatId, [item.kind === 'image' ? 'photo' : 'video']: item.url, ...reply };
      if (text) Object.assign(b, { caption: text, parse_mode: 'HTML' });
      if (item.kind === 'video') b.supports_streaming = true;
      return b;
    };

    return guarded(async () => {
      let chatId = creds.chat_id;
      for (let attempt = 0; ; attempt++) {
        const wait = await paced(ctx, `telegram:${chatId}`, spacingFor({ ...creds, chat_id: chatId }));
        if (wait) return wait;
        const res = await call(ctx, creds.bot_token, method, body(chatId));
        const result = okResult(res);
        if (result !== undefined) {
          const message = isRecord(result) ? result : {};
          const id = typeof message.message_id === 'number' ? String(message.message_id) : '';
          // ok:true means the message was sent; without an id it may exist, so this must not be retried as transient.
          if (!id) return { ok: false as const, kind: 'timeout' as const, error: `Telegram ${method} answered without a message_id; the message may have been sent` };
          const chat = asChat(message.chat);
          const url = messageUrl({ id: chat.id ?? chatId, username: chat.username ?? creds.chat_username }, id);
          return { ok: true as const, status: 'published' as const, id, url };
        }
        const migrated = envelope(res)?.parameters?.migrate_to_chat_id;
        if (migrated !== undefined && attempt === 0) {
          chatId = String(migrated);
          continue;
        }
        return classifyTelegram(res, method);
      }
    });
  }

  return { name: 'telegram', verify, check: checkTelegram, publish, ...createTelegramManagement({ apiBase }) };
}
