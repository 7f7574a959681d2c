import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { generateSecretKey } from 'nostr-tools/pure';
import { nsecEncode } from 'nostr-tools/nip19';
import { createNostrAdapter, NOSTR_MAX_RELAYS } from '../../shared/networks/nostr';
import type { PublishContent } from '../../shared/ports/networks';
import { FakeRelay } from '../../shared/networks/nostr/simulator';
import { testContext } from '../networks/context';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';

const nsec = nsecEncode(generateSecretKey());
const content: PublishContent = { text: 'gm', media: [], thread: [], send_key: 'k' };

/** A loopback TCP listener that counts connections: the guard's refusals must leave it at 0. */
let listener: net.Server;
let connections = 0;
let port = 0;
beforeAll(async () => {
  listener = net.createServer((s) => { connections++; s.destroy(); });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  port = (listener.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => listener.close(() => r())));
beforeEach(() => { connections = 0; });

const guarded = createNostrAdapter({ defaultRelays: ['wss://relay.example.net'], relayTimeoutMs: 300, lookup: async (host) => (host === 'relay.example.net' ? ['127.0.0.1'] : ['10.0.0.8']) });

describe('Nostr relays go through the address guard', () => {
  it.each([
    ['ws:// to loopback', () => `ws://127.0.0.1:${port}`, /not a wss:\/\/ URL/],
    ['wss:// to loopback', () => `wss://127.0.0.1:${port}`, /not a public address/],
    ['wss:// to a name resolving to loopback', () => `wss://relay.example.net:${port}`, /not a public address/],
    ['wss:// to localhost', () => `wss://localhost:${port}`, /not a public address/],
    ['an IPv4-mapped loopback', () => `wss://[::ffff:127.0.0.1]:${port}`, /not a public address/],
  ])('verify refuses %s without connecting', async (_, relay, message) => {
    const { ctx } = testContext({ nsec, relays: relay() });
    const out = await guarded.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(out.ok === false && out.error).toMatch(message);
    expect(connections).toBe(0);
  });

  it(`refuses more than ${NOSTR_MAX_RELAYS} relays, before contacting any`, async () => {
    const many = Array.from({ length: NOSTR_MAX_RELAYS + 1 }, (_, i) => `wss://r${i}.example.org`).join(',');
    const { ctx } = testContext({ nsec, relays: many });
    const out = await guarded.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(out.ok === false && out.error).toContain(`at most ${NOSTR_MAX_RELAYS}`);
  });

  it('publish (stored relays, or the defaults) never contacts a private relay and says nothing of what answered', async () => {
    const { ctx } = testContext({ nsec, relays: `wss://127.0.0.1:${port},wss://relay.example.net:${port}` });
    const out = await guarded.publish(content, ctx);
    expect(out).toMatchObject({ ok: false, kind: 'transient' });
    expect(JSON.stringify(out)).not.toMatch(/ECONN|refused|\b\d{3}\b.*response/i);
    const defaults = await guarded.publish(content, testContext({ nsec }).ctx);
    expect(defaults).toMatchObject({ ok: false, kind: 'transient' });
    expect(connections).toBe(0);
  });

  it('connects to the address that was checked, not to a second answer (ALLOW_PRIVATE_TARGETS run with a pinned name)', async () => {
    const relay = new FakeRelay();
    const url = await relay.start();
    try {
      const relayPort = new URL(url).port;
      // `relay.invalid` resolves only through the injected lookup: the socket must use that answer
      const pinned = createNostrAdapter({ allowPrivate: true, relayTimeoutMs: 1000, lookup: async () => ['127.0.0.1'] });
      const { ctx } = testContext({ nsec, relays: `ws://relay.invalid:${relayPort}` });
      expect(await pinned.publish(content, ctx)).toMatchObject({ ok: true, status: 'published' });
      expect(relay.events).toHaveLength(1);
    } finally {
      await relay.stop();
    }
  });

  it('an unreachable relay reports no socket-level detail', async () => {
    const open = createNostrAdapter({ allowPrivate: true, relayTimeoutMs: 500 });
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const out = await open.verify(testContext({ nsec, relays: `ws://127.0.0.1:${closedPort}` }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'transient' });
    expect(JSON.stringify(out)).not.toContain('ECONNREFUSED');
  });
});

describe('POST /api/connect nostr without ALLOW_PRIVATE_TARGETS', () => {
  let rt: LocalRuntime;
  beforeAll(async () => { rt = await startRuntime(); });
  afterAll(() => rt?.stop());

  it('refuses loopback relays with 400 invalid_credentials and the listener sees no connection', async () => {
    const api = client(rt.url, await signupThroughApi(rt.url, 'nostr-ssrf@example.com'));
    for (const relays of [`ws://127.0.0.1:${port}`, `wss://127.0.0.1:${port}`, `wss://[::1]:${port}`]) {
      const res = await api('POST', '/api/connect', { platform: 'nostr', credentials: { nsec, relays } });
      expect(res).toMatchObject({ status: 400, body: { code: 'invalid_credentials' } });
    }
    expect(connections).toBe(0);
  });
});
