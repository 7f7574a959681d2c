import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded, jsonInit, rejected, request, type HttpResult } from '../http';
import { classifyTelegram, envelope } from './errors';
import { isRecord, trimBase } from '../../domain/values';

const TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]+$/;

export interface Chat { id?: number; type?: string; title?: string; username?: string; first_name?: string }

export function asChat(v: unknown): Chat {
  if (!isRecord(v)) return {};
  return {
    id: typeof v.id === 'number' ? v.id : undefined,
    type: typeof v.type === 'string' ? v.type : undefined,
    title: typeof v.title === 'string' ? v.title : undefined,
    username: typeof v.username === 'string' ? v.username : undefined,
    first_name: typeof v.first_name === 'string' ? v.first_name : undefined,
  };
}

/** One Bot API call: `POST {base}/bot<token>/<method>` with a JSON body. */
export const botCall = (base: string) => (ctx: NetworkContext, token: string, method: string, body: Record<string, unknown>): Promise<HttpResult> =>
  request(ctx, `${base}/bot${token}/${method}`, jsonInit('POST', body));

/** The `result` of a 2xx answer with `ok: true`; undefined otherwise. */
export const okResult = (res: HttpResult): unknown => {
  const env = envelope(res);
  return res.status >= 200 && res.status < 300 && env?.ok ? env.result : undefined;
};

export function credentialError(creds: Record<string, string>): Failure | undefined {
  if (!TOKEN_SHAPE.test(creds.bot_token ?? '')) return rejected('bot_token is not a Telegram bot token (expected <digits>:<secret> as given by @BotFather)');
  if (!creds.chat_id) return rejected('chat_id is missing (a numeric chat id such as -100123… or @channelusername)');
  return undefined;
}

export function normalise(input: Record<string, string>): Record<string, string> {
  return { ...input, bot_token: (input.bot_token ?? '').trim(), chat_id: (input.chat_id ?? '').trim() };
}

/** Telegram's credential check: `getMe` (the token), then `getChat` (the chat: its id, type and public username). */
export function createTelegramVerifier({ apiBase = 'https://api.telegram.org' }: { apiBase?: string } = {}): NetworkVerifier {
  const call = botCall(trimBase(apiBase));
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const creds = normalise(ctx.credentials);
    const bad = credentialError(creds);
    if (bad) return bad;
    return guarded(async () => {
      const me = await call(ctx, creds.bot_token, 'getMe', {});
      if (okResult(me) === undefined) return classifyTelegram(me, 'getMe');
      const res = await call(ctx, creds.bot_token, 'getChat', { chat_id: creds.chat_id });
      const result = okResult(res);
      if (result === undefined) return classifyTelegram(res, `getChat(${creds.chat_id})`);
      const chat = asChat(result);
      const credentials: Record<string, string> = { ...creds, chat_id: chat.id !== undefined ? String(chat.id) : creds.chat_id };
      if (chat.type) credentials.chat_type = chat.type;
      if (chat.username) credentials.chat_username = chat.username;
      else delete credentials.chat_username;
      const handle = chat.username ? `@${chat.username}` : chat.title ?? chat.first_name ?? credentials.chat_id;
      return { ok: true as const, handle, credentials };
    });
  }
  return { name: 'telegram', verify };
}
