import net from 'node:net';
import { HttpWebhookSender } from '../../shared/adapters/webhook-sender';
import type { HostLookup } from '../../shared/net/address-guard';
import { UnsafeTargetError } from '../../shared/ports/media-gateway';
import { RESPONSE_EXCERPT_CHARS } from '../../shared/domain/webhooks';
import { TLS, WebhookReceiver } from './receiver';

/** Fake DNS (no real resolution in tests). */
const DNS: Record<string, string[]> = {
  'hooks.test': ['127.0.0.1'],
  'public.example': ['93.184.216.34', '2606:4700::1111'],
  'loopback.example': ['127.0.0.1'],
  'private.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.34', '192.168.1.10'],
  'metadata.example': ['169.254.169.254'],
  'ula.example': ['fd00::1'],
  'mapped.example': ['::ffff:10.0.0.1'],
  'cgnat.example': ['100.64.1.1'],
};
const fakeLookup: HostLookup = async (host) => {
  const found = DNS[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

const headers = { 'content-type': 'application/json', 'service-event': 'webhook.test', 'service-delivery': '00000000-0000-8000-8000-000000000000', 'service-signature': 't=1,v1=' + '0'.repeat(64) };

describe('https receiver with a self-signed certificate trusted in the test', () => {
  let tls: WebhookReceiver;
  beforeAll(async () => { tls = await new WebhookReceiver(true).start(); });
  afterAll(() => tls.stop());
  beforeEach(() => { tls.received.length = 0; tls.reply = () => ({ status: 200, body: '{"ok":true}' }); });

  it('connects to the checked address once resolved, with Host and TLS server name of the URL', async () => {
    const lookups: string[] = [];
    const sender = new HttpWebhookSender({ allowPrivate: true, ca: TLS.cert, lookup: async (h) => { lookups.push(h); return ['127.0.0.1']; } });
    const res = await sender.send(tls.url(), headers, '{"a":1}');
    expect(res).toMatchObject({ ok: true, status_code: 200, error: null, response_excerpt: '{"ok":true}' });
    expect(lookups).toEqual(['hooks.test']);
    expect(tls.received).toHaveLength(1);
    expect(tls.received[0]).toMatchObject({ method: 'POST', path: '/hook', servername: 'hooks.test' });
    expect(tls.received[0].headers.host).toBe(`hooks.test:${tls.port}`);
    expect(tls.received[0].raw.toString()).toBe('{"a":1}');
    expect(tls.received[0].headers['content-length']).toBe('7');
  });

  it('pins the connection: a second DNS answer (rebinding) is never used', async () => {
    let calls = 0;
    // first answer: the receiver; any later answer would point elsewhere (a closed port on another loopback address)
    const sender = new HttpWebhookSender({ allowPrivate: true, ca: TLS.cert, lookup: async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']) });
    const res = await sender.send(tls.url(), headers, '{}');
    expect(res.ok).toBe(true);
    expect(calls).toBe(1);
  });

  it('refuses a certificate it does not trust, and one for another name', async () => {
    const untrusted = new HttpWebhookSender({ allowPrivate: true, lookup: fakeLookup });
    const res = await untrusted.send(tls.url(), headers, '{}');
    expect(res.ok).toBe(false);
    expect(res.error).toMatch(/TLS|certificate/i);
    const wrongName = new HttpWebhookSender({ allowPrivate: true, ca: TLS.cert, lookup: async () => ['127.0.0.1'] });
    const other = await wrongName.send(`https://wrong.test:${tls.port}/hook`, headers, '{}');
    expect(other.ok).toBe(false);
    expect(other.error).toMatch(/TLS|altnames|certificate/i);
    expect(tls.received).toHaveLength(0);
  });
});

describe('answers and failures (http receiver, private targets allowed)', () => {
  let rx: WebhookReceiver;
  let target: WebhookReceiver;
  const sender = new HttpWebhookSender({ allowPrivate: true, timeoutMs: 300 });
  beforeAll(async () => { rx = await new WebhookReceiver().start(); target = await new WebhookReceiver().start(); });
  afterAll(async () => { await rx.stop(); await target.stop(); });
  beforeEach(() => { rx.received.length = 0; target.received.length = 0; });

  it('any 2xx is success', async () => {
    for (const status of [200, 201, 202, 204, 299]) {
      rx.reply = () => ({ status });
      expect(await sender.send(rx.url(), headers, '{}')).toMatchObject({ ok: true, status_code: status });
    }
  });

  it('redirects are not followed and count as failures', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      rx.reply = () => ({ status, headers: { location: target.url('/elsewhere') } });
      const res = await sender.send(rx.url(), headers, '{}');
      expect(res).toMatchObject({ ok: false, status_code: status });
      expect(res.error).toMatch(/redirect .* not followed/);
    }
    expect(target.received).toHaveLength(0);
    expect(rx.received).toHaveLength(5);
  });

  it('4xx and 5xx fail with the status', async () => {
    rx.reply = () => ({ status: 503, body: 'down for maintenance' });
    expect(await sender.send(rx.url(), headers, '{}')).toMatchObject({ ok: false, status_code: 503, error: 'the endpoint answered HTTP 503', response_excerpt: 'down for maintenance' });
    rx.reply = () => ({ status: 410 });
    expect(await sender.send(rx.url(), headers, '{}')).toMatchObject({ ok: false, status_code: 410 });
  });

  it('no answer within the deadline is a timeout; a reset and a refused connection fail too', async () => {
    rx.reply = () => ({ hang: true });
    const timed = await sender.send(rx.url(), headers, '{}');
    expect(timed).toMatchObject({ ok: false, status_code: null });
    expect(timed.error).toMatch(/^timed out/);
    rx.reply = () => ({ reset: true });
    expect((await sender.send(rx.url(), headers, '{}')).error).toMatch(/reset|socket hang up/);
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await sender.send(`http://127.0.0.1:${port}/`, headers, '{}')).toMatchObject({ ok: false, error: 'connection refused' });
  });

  it('reads at most the response cap; the log keeps a short excerpt', async () => {
    const capped = new HttpWebhookSender({ allowPrivate: true, maxResponseBytes: 4096 });
    rx.reply = () => ({ status: 200, body: 'x'.repeat(2_000_000) });
    const res = await capped.send(rx.url(), headers, '{}');
    expect(res.ok).toBe(true);
    expect(res.response_excerpt).toHaveLength(RESPONSE_EXCERPT_CHARS);
  });
});

describe('address checks at registration and at every try', () => {
  const strict = new HttpWebhookSender({ allowPrivate: false, lookup: fakeLookup, timeoutMs: 500 });
  const UNSAFE = [
    'http://public.example/hook', // https only
    'ftp://public.example/hook',
    'file:///etc/passwd',
    'https://user:pass@public.example/hook',
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://app.localhost/hook',
    'https://[::1]/hook',
    'https://10.0.0.5/hook',
    'https://172.20.1.1/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://2130706433/hook', // 127.0.0.1 in decimal
    'https://0x7f000001/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://224.0.0.1/hook',
    'https://loopback.example/hook',
    'https://private.example/hook',
    'https://mixed.example/hook', // one public and one private address
    'https://metadata.example/hook',
    'https://ula.example/hook',
    'https://mapped.example/hook',
    'https://cgnat.example/hook',
    'https://nowhere.example/hook', // does not resolve
    'not a url',
  ];

  it('the table holds at least 20 unsafe URLs', () => expect(UNSAFE.length).toBeGreaterThanOrEqual(20));

  it.each(UNSAFE)('refuses %s at registration', async (url) => {
    await expect(strict.check(url)).rejects.toBeInstanceOf(UnsafeTargetError);
  });

  it.each(UNSAFE)('refuses %s at delivery, without connecting', async (url) => {
    const res = await strict.send(url, headers, '{}');
    expect(res).toMatchObject({ ok: false, status_code: null });
    expect(res.error).toMatch(/^address check failed/);
  });

  it('accepts a public https name', async () => {
    await expect(strict.check('https://public.example/hook')).resolves.toBeUndefined();
  });

  it('ALLOW_PRIVATE_TARGETS lifts the checks (http to loopback works)', async () => {
    const open = new HttpWebhookSender({ allowPrivate: true });
    await expect(open.check('http://127.0.0.1:9/hook')).resolves.toBeUndefined();
    await expect(open.check('file:///etc/passwd')).rejects.toBeInstanceOf(UnsafeTargetError);
  });
});
