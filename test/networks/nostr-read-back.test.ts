import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { noteEncode, nsecEncode } from 'nostr-tools/nip19';
import { createNostrAdapter } from '../../shared/networks/nostr';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { FakeRelay } from '../../shared/networks/nostr/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

const sk = generateSecretKey();
const nsec = nsecEncode(sk);
const relays = [new FakeRelay(), new FakeRelay()];
let deadRelay: string;
let adapter = createNostrAdapter();
const T0 = Date.UTC(2026, 10, 27, 6, 0, 0);
const content = (text: string): PublishContent => ({ text, media: [], thread: [], send_key: 'k' });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const ctx = (creds: Record<string, string> = { nsec }) => testContext(creds, { clock: new ManualClock(T0 + 60_000, { sleeps: 'advance' }) }).ctx;
const note = (text: string, at: number, key = sk) => finalizeEvent({ kind: 1, created_at: Math.floor(at / 1000), tags: [], content: text }, key) as unknown as Record<string, unknown>;
const reqs = (r: FakeRelay) => r.frames.filter((f) => f[0] === 'REQ');

beforeAll(async () => {
  await Promise.all(relays.map((r) => r.start()));
  const dead = new FakeRelay();
  deadRelay = await dead.start();
  await dead.stop();
  adapter = createNostrAdapter({ defaultRelays: relays.map((r) => r.url), relayTimeoutMs: 3000, graceAfterAcceptMs: 200, allowPrivate: true });
});
afterAll(() => Promise.all(relays.map((r) => r.stop())));
beforeEach(() => relays.forEach((r) => r.reset()));

it('finds the note a worker sent: a REQ by our pubkey, kind 1 and the window; found on any relay, with its njump link', async () => {
  const event = note('gm nostr', T0 + 5_000);
  relays[1].stored.push(event);
  const out = await adapter.readBack!(content('gm nostr'), query('gm nostr'), ctx());
  expect(out).toEqual({ state: 'found', id: event.id, url: `https://njump.me/${noteEncode(event.id as string)}` });
  for (const r of relays) {
    const [req] = reqs(r);
    expect(req[2]).toEqual({ authors: [getPublicKey(sk)], kinds: [1], limit: 100, since: (T0 - 120_000) / 1000, until: (T0 + 180_000) / 1000 });
  }
  await Promise.all(relays.map((r) => r.allClosed()));
});

it('absent when every relay ends its stored events (EOSE) without the note; another key\'s note or an older one does not count', async () => {
  relays[0].stored.push(note('gm nostr', T0 + 5_000, generateSecretKey()), note('gm nostr', T0 - 3_600_000), note('other', T0 + 1_000));
  expect(await adapter.readBack!(content('gm nostr'), query('gm nostr'), ctx())).toEqual({ state: 'absent' });
});

it('a relay that cannot be read → unreadable unless another relay has the note', async () => {
  const creds = { nsec, relays: `${relays[0].url},${deadRelay}` };
  expect(await adapter.readBack!(content('gm nostr'), query('gm nostr'), ctx(creds))).toMatchObject({ state: 'unreadable', reason: expect.stringContaining(deadRelay) });
  const event = note('gm nostr', T0 + 5_000);
  relays[0].stored.push(event);
  expect(await adapter.readBack!(content('gm nostr'), query('gm nostr'), ctx(creds))).toMatchObject({ state: 'found', id: event.id });
});

it('a relay answering the full limit does not prove the window complete → unreadable', async () => {
  for (let i = 0; i < 100; i++) relays[0].stored.push(note(`noise ${i}`, T0 + i * 100));
  expect(await adapter.readBack!(content('gm nostr'), query('gm nostr'), ctx())).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('100 or more') });
});
