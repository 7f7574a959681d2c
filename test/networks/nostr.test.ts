import { generateSecretKey, getPublicKey, verifyEvent, type Event } from 'nostr-tools/pure';
import { decode, noteEncode, npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { createNostrAdapter, NOSTR_MAX_EVENT_BYTES } from '../../shared/networks/nostr';
import type { PublishContent } from '../../shared/ports/networks';
import { FakeRelay } from '../../shared/networks/nostr/simulator';
import { testContext } from './context';
import { ManualClock } from '../support/clock';

const sk = generateSecretKey();
const nsec = nsecEncode(sk);
const pubkey = getPublicKey(sk);
const relays = [new FakeRelay(), new FakeRelay(), new FakeRelay()];
let deadRelay: string;
// The adapter's defaults point at loopback relays; short per-relay wait keeps the silent-relay tests fast.
let adapter = createNostrAdapter();

const content = (over: Partial<PublishContent> = {}): PublishContent =>
  ({ text: 'gm nostr', media: [], thread: [], send_key: 'k1', ...over });

beforeAll(async () => {
  await Promise.all(relays.map((r) => r.start()));
  const dead = new FakeRelay();
  deadRelay = await dead.start();
  await dead.stop();
  adapter = createNostrAdapter({ defaultRelays: relays.map((r) => r.url), relayTimeoutMs: 400, graceAfterAcceptMs: 200, allowPrivate: true });
});
afterAll(() => Promise.all(relays.map((r) => r.stop())));
beforeEach(() => relays.forEach((r) => r.reset()));

/** Nostr's only wait is the grace period after a relay accepts: its clock stands still unless a test moves it. */
const relayContext = (credentials: Record<string, string>) => testContext(credentials, { clock: new ManualClock(Date.now(), { sleeps: 'advance' }) });
const allClosed = () => Promise.all(relays.map((r) => r.allClosed()));

describe('nostr verify', () => {
  it('decodes the nsec, reaches a relay, returns the npub and normalised credentials', async () => {
    const hex = Buffer.from(sk).toString('hex');
    const { ctx } = relayContext({ nsec: ` ${hex} `, relays: ` ${relays[0].url}/ , ${relays[1].url}` });
    const out = await adapter.verify(ctx);
    expect(out).toEqual({ ok: true, handle: npubEncode(pubkey), credentials: { nsec, relays: `${relays[0].url},${relays[1].url}` } });
    expect(relays[0].connections + relays[1].connections).toBeGreaterThanOrEqual(1);
    expect(relays[2].connections).toBe(0);
    await allClosed();
  });

  it('an invalid nsec → rejected "not a valid nsec", the value not echoed', async () => {
    const { ctx } = relayContext({ nsec: 'nsec1notreallyakey' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toContain('not a valid nsec');
    expect(JSON.stringify(out)).not.toContain('nsec1notreallyakey');
    // an npub is not a secret key either
    const { ctx: ctx2 } = relayContext({ nsec: npubEncode(pubkey) });
    expect(await adapter.verify(ctx2)).toMatchObject({ ok: false, kind: 'rejected' });
  });

  it('a relay list with a non-WebSocket URL → rejected', async () => {
    const { ctx } = relayContext({ nsec, relays: 'https://relay.example.com' });
    expect(await adapter.verify(ctx)).toMatchObject({ ok: false, kind: 'rejected' });
  });

  it('no reachable relay → transient', async () => {
    const { ctx } = relayContext({ nsec, relays: deadRelay });
    expect(await adapter.verify(ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });
});

describe('nostr publish', () => {
  it('signs a kind-1 event, sends it to every relay, returns id and njump URL', async () => {
    relays[2].behaviour = { kind: 'refuse', message: 'blocked: not on allow list' };
    const { ctx } = relayContext({ nsec });
    const before = Math.floor(Date.now() / 1000);
    const out = await adapter.publish(content({ media: [{ url: 'https://cdn.example.com/cat.jpg', kind: 'image' }] }), ctx);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    for (const relay of relays) {
      expect(relay.frames).toHaveLength(1);
      expect(relay.frames[0][0]).toBe('EVENT');
    }
    const event = relays[0].events[0] as unknown as Event;
    expect(verifyEvent({ ...event })).toBe(true);
    expect(event).toMatchObject({ kind: 1, tags: [], pubkey, content: 'gm nostr\nhttps://cdn.example.com/cat.jpg' });
    expect(event.created_at).toBeGreaterThanOrEqual(before);
    expect(relays[1].events[0]).toEqual(event);
    expect(out).toEqual({ ok: true, status: 'published', id: event.id, url: `https://njump.me/${noteEncode(event.id)}` });
    expect(decode(out.url.slice('https://njump.me/'.length))).toEqual({ type: 'note', data: event.id });
    await allClosed();
  });

  it('uses credentials.relays instead of the defaults', async () => {
    const { ctx } = relayContext({ nsec, relays: relays[1].url });
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: true });
    expect(relays[0].frames).toHaveLength(0);
    expect(relays[1].events).toHaveLength(1);
    await allClosed();
  });

  it('one relay accepts while another never answers and a third is down → ok, all sockets closed', async () => {
    relays[1].behaviour = { kind: 'silent' };
    // No real timer can end it (a minute per relay and on the signal): only the grace period, on the context's clock.
    const patient = createNostrAdapter({ defaultRelays: relays.map((r) => r.url), relayTimeoutMs: 60_000, graceAfterAcceptMs: 200, allowPrivate: true });
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    const { ctx } = testContext({ nsec, relays: [relays[0].url, relays[1].url, deadRelay].join(',') }, { clock, timeoutMs: 60_000 });
    const silentHasIt = relays[1].nextEvent();
    const out = patient.publish(content(), ctx);
    await Promise.all([silentHasIt, clock.sleeping(1)]);
    expect(clock.sleeps).toEqual([200]);
    clock.advance(200);
    expect(await out).toMatchObject({ ok: true });
    expect(relays[1].events).toHaveLength(1);
    await allClosed();
  });

  it('every relay refuses → rejected with the relays\' messages', async () => {
    relays.forEach((r) => { r.behaviour = { kind: 'refuse', message: 'blocked: pubkey not admitted' }; });
    relays[0].behaviour = { kind: 'refuse', message: 'invalid: event too old' };
    const { ctx } = relayContext({ nsec });
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toContain('invalid: event too old');
    expect(out.ok === false && out.error).toContain('blocked: pubkey not admitted');
    await allClosed();
  });

  it('"rate-limited:" refusals and no acceptance → rate_limited 60 s', async () => {
    relays.forEach((r) => { r.behaviour = { kind: 'refuse', message: 'rate-limited: slow down there chief' }; });
    relays[2].behaviour = { kind: 'refuse', message: 'blocked: spam' };
    const { ctx } = relayContext({ nsec });
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 60 });
    await allClosed();
  });

  it('no relay answers → timeout within the deadline, sockets closed', async () => {
    relays.forEach((r) => { r.behaviour = { kind: 'silent' }; });
    const slowAdapter = createNostrAdapter({ defaultRelays: relays.map((r) => r.url), allowPrivate: true });
    const { ctx, expire } = relayContext({ nsec });
    const allHaveIt = Promise.all(relays.map((r) => r.nextEvent()));
    const out = slowAdapter.publish(content(), ctx);
    await allHaveIt;
    expire();
    expect(await out).toMatchObject({ ok: false, kind: 'timeout' });
    expect(relays.every((r) => r.events.length === 1)).toBe(true);
    await allClosed();
  });

  it('all relays down → transient', async () => {
    const { ctx } = relayContext({ nsec, relays: deadRelay });
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a stored key that no longer decodes → reauth, nothing sent', async () => {
    const { ctx } = relayContext({ nsec: 'nsec1broken' });
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(relays.every((r) => r.connections === 0)).toBe(true);
  });
});

describe('nostr check', () => {
  it('a note over 64 KiB of event JSON → text_too_long with limit and size; no relay contacted', async () => {
    const text = 'x'.repeat(NOSTR_MAX_EVENT_BYTES);
    const out = adapter.check(content({ text }), { nsec });
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(out?.ok === false && out.error).toContain(String(NOSTR_MAX_EVENT_BYTES));
    expect(out?.ok === false && out.error).toMatch(/\d{5}-byte event/);
    const { ctx } = relayContext({ nsec });
    expect(await adapter.publish(content({ text }), ctx)).toMatchObject({ code: 'text_too_long' });
    expect(relays.every((r) => r.connections === 0)).toBe(true);
    expect(adapter.check(content({ text: 'x'.repeat(NOSTR_MAX_EVENT_BYTES - 1000) }), { nsec })).toBeUndefined();
  });

  it('more than one media link → bad_media', () => {
    const m = { url: 'https://x/a.jpg', kind: 'image' as const };
    expect(adapter.check(content({ media: [m, m] }), { nsec })).toMatchObject({ code: 'bad_media' });
  });
});
