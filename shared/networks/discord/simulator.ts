import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

/**
 * A loopback Discord webhook endpoint: `GET /api/webhooks/<id>/<token>` answers the Webhook object and
 * `POST /api/webhooks/<id>/<token>?wait=true` answers the created Message. A wrong token answers 401 (50027),
 * an unknown id 404 (10015 Unknown Webhook). A multipart POST (payload_json + files[n], attachments[].description as
 * alt text) is read as Discord does. `failNext` queues replies for the next POSTs. Messages it sent can be deleted
 * (`DELETE …/messages/<id>`, 204) and edited (`PATCH …/messages/<id>`); an unknown one answers 404 Unknown Message (10008).
 */
export class DiscordFake extends NetworkSimulator {
  webhookId = '1234567890123456789';
  webhookToken = 'tok_EN-secret_abc123';
  guildId = '111111111111111111';
  channelId = '222222222222222222';
  name = 'Acme Announcements';
  readonly queued: FakeReply[] = [];
  private static readonly FIRST_ID = 333333333333333000n;
  private nextId = DiscordFake.FIRST_ID;
  /** Messages sent and not deleted, by id, with their content. */
  readonly messages = new Map<string, string>();

  get webhookPath(): string { return `/api/webhooks/${this.webhookId}/${this.webhookToken}`; }
  get webhookUrl(): string { return `${this.server.url}${this.webhookPath}`; }
  override reset(): void { super.reset(); this.queued.length = 0; this.nextId = DiscordFake.FIRST_ID; this.messages.clear(); }
  failNext(reply: FakeReply): void { this.queued.push(reply); }

  /** The payload_json part of a multipart/form-data message (files with attachments[].description). */
  static payloadJson(req: RecordedRequest): unknown {
    if (!String(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) return undefined;
    const m = /name="payload_json"\r\n(?:Content-Type: [^\r]+\r\n)?\r\n([^\r]*)\r\n/.exec(req.text);
    try { return m ? JSON.parse(m[1]) : undefined; } catch { return undefined; }
  }

  protected route(req: RecordedRequest): FakeReply {
    const m = /^\/api\/(?:v\d+\/)?webhooks\/(\d+)\/([^/]+)(?:\/messages\/(\d+))?$/.exec(req.path);
    if (!m || m[1] !== this.webhookId) return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
    if (m[2] !== this.webhookToken) return { status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } };
    if (m[3] !== undefined) return this.message(req, m[3]);
    if (req.method === 'GET') {
      return { body: { type: 1, id: this.webhookId, name: this.name, channel_id: this.channelId, guild_id: this.guildId, token: this.webhookToken, avatar: null } };
    }
    if (req.method !== 'POST') return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } };
    const queued = this.queued.shift();
    if (queued) return queued;
    const body = (req.json ?? DiscordFake.payloadJson(req) ?? {}) as Record<string, unknown>;
    const attachments = Array.isArray(body.attachments) ? body.attachments as Array<{ id: number; filename: string; description?: string }> : [];
    for (const a of attachments) {
      if (!new RegExp(`name="files\\[${a.id}\\]"; filename="${a.filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).test(req.text)) {
        return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: { attachments: { [a.id]: 'no files[n] part for this attachment' } } } };
      }
      if (a.description !== undefined && a.description.length > 1024) return { status: 400, body: { message: 'Invalid Form Body', code: 50035 } };
    }
    if (attachments.length && !body.content && !body.embeds) body.content = '';
    if (!body.content && !body.embeds && !attachments.length) return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
    const id = String(this.nextId++);
    this.messages.set(id, String(body.content ?? ''));
    return { body: { id, type: 0, channel_id: this.channelId, content: body.content ?? '', embeds: body.embeds ?? [], webhook_id: this.webhookId } };
  }

  /** Delete / Edit Webhook Message of a message this webhook sent. */
  private message(req: RecordedRequest, id: string): FakeReply {
    if (!this.messages.has(id)) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    if (req.method === 'DELETE') {
      this.messages.delete(id);
      return { status: 204 };
    }
    if (req.method !== 'PATCH') return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } };
    const content = (req.json as { content?: unknown } | undefined)?.content;
    if (typeof content !== 'string' || !content) return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
    this.messages.set(id, content);
    return { body: { id, type: 0, channel_id: this.channelId, content, webhook_id: this.webhookId, edited_timestamp: new Date().toISOString() } };
  }
}

/** Discord in the sandbox of `npm start`: its webhook URL travels in the credentials (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<DiscordFake> = {
  create: () => new DiscordFake(),
  servers: (fake) => ({ discord: fake.server }),
  env: () => ({}),
  credentials: (fake) => ({ webhook_url: fake.webhookUrl }),
  read: readByPaths(/^\/api\/webhooks\//, [
    ['DELETE', /^\/api\/webhooks\/.+\/messages\/\d+$/, 'deleted'], ['PATCH', /^\/api\/webhooks\/.+\/messages\/\d+$/, 'edited'],
  ]),
};
