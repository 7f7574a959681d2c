import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSocialClient, unwrap } from '../shared/client/index';
import { checkWebhook } from '../shared/webhooks/verify';

/**
 * `npm run smoke -- --base-url https://… [options]`: the checks a freshly deployed stage (or the local runtime) must
 * pass, in order: the catalog answers; sign-up through a test mailbox hook gives a key (or --api-key); the key
 * works; a network connects; a webhook endpoint registers; a post publishes; the post.published webhook arrives
 * with a valid signature. Exit 0 when every step passed.
 *
 *   --base-url URL          the API (required)
 *   --mailbox URL           a mailbox hook answering [{to, links: [...]}] (default: <base-url>/dev/outbox, local only)
 *   --email ADDRESS         the sign-up address (default: smoke+<time>@example.com)
 *   --api-key KEY           skip sign-up and use this key
 *   --network NAME          the network to post to (default telegram; use a sandbox-mode network)
 *   --credentials JSON      its credentials for POST /api/connect (env SMOKE_CREDENTIALS)
 *   --receiver-port N       port of the local webhook receiver this script runs (default: any free port)
 *   --webhook-url URL       the public URL that reaches that receiver (default http://127.0.0.1:<port>/hook)
 *   --timeout SECONDS       how long to wait for the webhook (default 60)
 */
export interface SmokeOptions {
  baseUrl: string;
  mailbox?: string;
  email?: string;
  apiKey?: string;
  network: string;
  credentials: Record<string, string>;
  receiverPort?: number;
  webhookUrl?: string;
  timeoutSeconds?: number;
  log?: (line: string) => void;
}

export interface SmokeResult { ok: boolean; steps: Array<{ step: string; ok: boolean; detail: string }> }

interface Received { raw: string; signature: string | undefined }

function startReceiver(port: number): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(parts).toString('utf8'), signature: req.headers['service-signature'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({
    port: (server.address() as AddressInfo).port, received,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  })));
}

export async function runSmoke(opts: SmokeOptions): Promise<SmokeResult> {
  const log = opts.log ?? (() => undefined);
  const base = opts.baseUrl.replace(/\/$/, '');
  const steps: SmokeResult['steps'] = [];
  const step = async <T>(name: string, fn: () => Promise<[T, string]>): Promise<T> => {
    try {
      const [value, detail] = await fn();
      steps.push({ step: name, ok: true, detail });
      log(`✓ ${name}: ${detail}`);
      return value;
    } catch (err) {
      const detail = (err as Error).message;
      steps.push({ step: name, ok: false, detail });
      log(`✗ ${name}: ${detail}`);
      throw err;
    }
  };
  const receiver = await startReceiver(opts.receiverPort ?? 0);
  try {
    const anon = createSocialClient({ baseUrl: base });
    await step('catalog', async () => {
      const p = await unwrap(anon.GET('/api/platforms'));
      if (!p.platforms.some((x) => x.name === opts.network)) throw new Error(`${opts.network} is not a network of this API`);
      return [p, `${p.platforms.length} networks`];
    });
    const apiKey = opts.apiKey ?? await step('sign-up through the mailbox hook', async () => {
      const email = opts.email ?? `smoke+${Date.now()}@example.com`;
      await unwrap(anon.POST('/api/signup', { body: { email } }));
      const mails = (await (await fetch(opts.mailbox ?? `${base}/dev/outbox`)).json()) as Array<{ to: string; links: string[] }>;
      const link = mails.find((m) => m.to === email)?.links.find((l) => l.includes('/api/signup/confirm'));
      if (!link) throw new Error(`no confirmation mail for ${email} in the mailbox hook`);
      // opening the link only shows a button (mail scanners must not use it up): confirm with POST {token}
      const token = new URL(link).searchParams.get('token') ?? '';
      const confirmed = await fetch(new URL('/api/signup/confirm', link), {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ token }),
      });
      const body = (await confirmed.json()) as { api_key?: string };
      if (!confirmed.ok || !body.api_key) throw new Error(`confirmation answered ${confirmed.status}`);
      return [body.api_key, `${email} confirmed, key issued`];
    });
    const api = createSocialClient({ baseUrl: base, apiKey });
    await step('key works', async () => { const me = await unwrap(api.GET('/api/me')); return [me, `account ${me.account.id}`]; });
    await step(`connect ${opts.network}`, async () => {
      const c = await unwrap(api.POST('/api/connect', { body: { platform: opts.network, credentials: opts.credentials } }));
      return [c, `${c.connection.handle} connected`];
    });
    const hook = await step('register a webhook', async () => {
      const url = opts.webhookUrl ?? `http://127.0.0.1:${receiver.port}/hook`;
      const w = await unwrap(api.POST('/api/webhooks', { body: { url, events: ['post.published', 'post.failed'] } }));
      return [w, `${w.webhook.id} → ${url}`];
    });
    const post = await step(`post to ${opts.network}`, async () => {
      const res = await unwrap(api.POST('/api/post', { body: { platforms: [opts.network], text: `Smoke test ${new Date().toISOString()}` } }));
      const r = res.results[0] as { ok: boolean; status: string; url?: string | null; code?: string | null; error?: string | null };
      if (!r.ok) throw new Error(`${r.status} ${r.code}: ${r.error}`);
      return [res, `${res.post_id} ${r.status} ${r.url ?? ''}`];
    });
    await step('webhook round trip', async () => {
      const deadline = Date.now() + (opts.timeoutSeconds ?? 60) * 1000;
      for (;;) {
        const match = receiver.received.find((r) => r.raw.includes(post.post_id));
        if (match) {
          const check = checkWebhook(match.raw, match.signature, hook.secret, { toleranceSeconds: 300 });
          if (!check.ok) throw new Error(`signature refused: ${check.reason}`);
          const event = JSON.parse(match.raw) as { type: string };
          if (event.type !== 'post.published') throw new Error(`got ${event.type}`);
          return [event, `${event.type} received, signature valid`];
        }
        if (Date.now() > deadline) throw new Error(`no webhook for ${post.post_id} within ${opts.timeoutSeconds ?? 60} s`);
        await new Promise((r) => setTimeout(r, 250));
      }
    });
    await step('clean up', async () => {
      await unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id: hook.webhook.id } } }));
      return [undefined, 'webhook removed'];
    });
  } catch {
    // the failed step is recorded
  } finally {
    await receiver.close();
  }
  return { ok: steps.length > 0 && steps.every((s) => s.ok), steps };
}

function parseCli(argv: string[], env: NodeJS.ProcessEnv): SmokeOptions {
  const get = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
  const baseUrl = get('base-url');
  if (!baseUrl) throw new Error('--base-url is required');
  const creds = get('credentials') ?? env.SMOKE_CREDENTIALS;
  if (!creds) throw new Error('--credentials (or SMOKE_CREDENTIALS) is required: the JSON credentials of the network to post to');
  const port = get('receiver-port');
  const timeout = get('timeout');
  return {
    baseUrl, network: get('network') ?? 'telegram', credentials: JSON.parse(creds) as Record<string, string>,
    ...(get('mailbox') ? { mailbox: get('mailbox') } : {}), ...(get('email') ? { email: get('email') } : {}),
    ...(get('api-key') ?? env.SOCIAL_API_KEY ? { apiKey: get('api-key') ?? env.SOCIAL_API_KEY } : {}),
    ...(port ? { receiverPort: Number(port) } : {}), ...(get('webhook-url') ? { webhookUrl: get('webhook-url') } : {}),
    ...(timeout ? { timeoutSeconds: Number(timeout) } : {}),
  };
}

if (require.main === module) {
  (async () => {
    const opts = parseCli(process.argv.slice(2), process.env);
    const res = await runSmoke({ ...opts, log: (l) => process.stdout.write(l + '\n') });
    process.stdout.write(res.ok ? 'smoke: passed\n' : 'smoke: FAILED\n');
    process.exitCode = res.ok ? 0 : 1;
  })().catch((err) => { process.stderr.write(`smoke: ${(err as Error).message}\n`); process.exitCode = 2; });
}
