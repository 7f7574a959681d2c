import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

/**
 * A loopback Slack incoming webhook: `POST /services/<team>/<bot>/<secret>` answers 200 `ok` (text/plain) like Slack,
 * an unknown hook 404 `no_service`, a body without text 400 `no_text`. `failNext` queues replies for the next POSTs.
 */
export class SlackFake extends NetworkSimulator {
  team = 'T0ACME123';
  bot = 'B0HOOK456';
  secret = 'SeCrEt0123456789abcdefGH';
  readonly queued: FakeReply[] = [];

  get webhookPath(): string { return `/services/${this.team}/${this.bot}/${this.secret}`; }
  get webhookUrl(): string { return `${this.server.url}${this.webhookPath}`; }
  override reset(): void { super.reset(); this.queued.length = 0; }
  failNext(reply: FakeReply): void { this.queued.push(reply); }

  static text(status: number, body: string, headers: Record<string, string> = {}): FakeReply {
    return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body };
  }

  protected route(req: RecordedRequest): FakeReply {
    if (req.method !== 'POST' || req.path !== this.webhookPath) return SlackFake.text(404, 'no_service');
    const queued = this.queued.shift();
    if (queued) return queued;
    const body = req.json as Record<string, unknown> | undefined;
    if (!body) return SlackFake.text(400, 'invalid_payload');
    if (!body.text && !body.blocks) return SlackFake.text(400, 'no_text');
    return SlackFake.text(200, 'ok');
  }
}

/** Slack in the sandbox of `npm start`: its webhook URL travels in the credentials (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<SlackFake> = {
  create: () => new SlackFake(),
  servers: (fake) => ({ slack: fake.server }),
  env: () => ({}),
  credentials: (fake) => ({ webhook_url: fake.webhookUrl }),
  read: readByPaths(/^\/services\//),
};
