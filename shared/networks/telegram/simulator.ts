import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export interface FakeChat { id: number; type: 'private' | 'group' | 'supergroup' | 'channel'; title?: string; username?: string }

/**
 * A loopback Telegram Bot API: `POST /bot<token>/<method>` with JSON bodies. Knows one bot token and a few chats;
 * answers getMe, getChat, sendMessage, sendPhoto and sendVideo like Telegram (reply_parameters.message_id must name an
 * earlier message, else "message to be replied not found"), and plays queued replies (`failNext`)
 * for the next send call. Messages it sent can be deleted (deleteMessage) and edited (editMessageText for text,
 * editMessageCaption for a photo or video) with Telegram's answers for unknown, deleted or unchanged messages.
 */
export class TelegramFake extends NetworkSimulator {
  token = '123456789:AAE-test_token';
  bot = { id: 123456789, is_bot: true, first_name: 'Acme', username: 'acme_bot' };
  chats: FakeChat[] = [
    { id: -1001234567890, type: 'channel', title: 'Acme News', username: 'acmenews' },
    { id: -1009876543210, type: 'supergroup', title: 'Acme Private' },
    { id: -4001, type: 'group', title: 'Acme Team' },
  ];
  /** Replies played, in order, for the next send* calls instead of the normal answer. */
  readonly queued: FakeReply[] = [];
  private nextMessageId = 41;
  /** Messages sent and not deleted, by `<chat id>:<message id>`: their text or caption, and whether they carry media. */
  readonly sent = new Map<string, { text: string; media: boolean }>();

  /** The Bot API method of each request received, in order. */
  get methods(): string[] { return this.requests.map((r) => r.path.split('/').pop() ?? ''); }
  override reset(): void { super.reset(); this.queued.length = 0; this.nextMessageId = 41; this.sent.clear(); }

  failNext(reply: FakeReply): void { this.queued.push(reply); }

  static error(code: number, description: string, parameters?: Record<string, number>): FakeReply {
    return { status: code, body: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) } };
  }

  private findChat(chatId: unknown): FakeChat | undefined {
    const key = String(chatId);
    return this.chats.find((c) => String(c.id) === key || (c.username && `@${c.username}` === key));
  }

  protected route(req: RecordedRequest): FakeReply {
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
    if (!m) return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    const [, token, method] = m;
    if (token !== this.token) return TelegramFake.error(401, 'Unauthorized');
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (method === 'getMe') return { body: { ok: true, result: this.bot } };
    const chat = this.findChat(body.chat_id);
    if (method === 'getChat') {
      return chat ? { body: { ok: true, result: chat } } : TelegramFake.error(400, 'Bad Request: chat not found');
    }
    if (method === 'sendMessage' || method === 'sendPhoto' || method === 'sendVideo') {
      const queued = this.queued.shift();
      if (queued) return queued;
      if (!chat) return TelegramFake.error(400, 'Bad Request: chat not found');
      const replyTo = (body.reply_parameters as { message_id?: unknown } | undefined)?.message_id;
      if (replyTo !== undefined && (typeof replyTo !== 'number' || replyTo < 1 || replyTo >= this.nextMessageId)) {
        return TelegramFake.error(400, 'Bad Request: message to be replied not found');
      }
      const message: Record<string, unknown> = { message_id: this.nextMessageId++, date: 1760000000, chat };
      if (replyTo !== undefined) message.reply_to_message = { message_id: replyTo, date: 1750000000, chat };
      if (method === 'sendMessage') message.text = body.text;
      else message.caption = body.caption;
      this.sent.set(`${chat.id}:${String(message.message_id)}`, { text: String(body.text ?? body.caption ?? ''), media: method !== 'sendMessage' });
      return { body: { ok: true, result: message } };
    }
    if (method === 'deleteMessage' || method === 'editMessageText' || method === 'editMessageCaption') {
      if (!chat) return TelegramFake.error(400, 'Bad Request: chat not found');
      const key = `${chat.id}:${String(body.message_id)}`;
      const message = this.sent.get(key);
      if (method === 'deleteMessage') {
        if (!message) return TelegramFake.error(400, 'Bad Request: message to delete not found');
        this.sent.delete(key);
        return { body: { ok: true, result: true } };
      }
      if (!message) return TelegramFake.error(400, 'Bad Request: message to edit not found');
      if (method === 'editMessageText' && message.media) return TelegramFake.error(400, 'Bad Request: there is no text in the message to edit');
      if (method === 'editMessageCaption' && !message.media) return TelegramFake.error(400, 'Bad Request: there is no caption in the message to edit');
      const next = String((method === 'editMessageText' ? body.text : body.caption) ?? '');
      if (next === message.text) return TelegramFake.error(400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
      this.sent.set(key, { ...message, text: next });
      return { body: { ok: true, result: { message_id: Number(body.message_id), date: 1760000000, edit_date: 1760000100, chat, [method === 'editMessageText' ? 'text' : 'caption']: next } } };
    }
    return TelegramFake.error(404, 'Not Found: method not found');
  }
}

/** Telegram in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<TelegramFake> = {
  create: () => new TelegramFake(),
  servers: (fake) => ({ telegram: fake.server }),
  env: (_fake, base) => ({ TELEGRAM_API_BASE: base('telegram') }),
  credentials: (fake) => ({ bot_token: fake.token, chat_id: '@acmenews' }),
  read: readByPaths(/^\/bot[^/]+\/send(Message|Photo|Video|MediaGroup)$/, [
    ['POST', /^\/bot[^/]+\/deleteMessage$/, 'deleted'], ['POST', /^\/bot[^/]+\/editMessage(Text|Caption)$/, 'edited'],
  ]),
  textLimit: { path: /^\/bot[^/]+\/sendMessage$/, text: (b) => b.text, max: 4096, reply: { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } } },
};
