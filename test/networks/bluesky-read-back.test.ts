import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import type { NetworkAdapter, PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';
import { watchContract } from '../contracts/watch';
import { atprotoViolations } from '../contracts/atproto';

const fake = new BlueskyFake();
// the session and publish requests against the atproto lexicons (the feed reads are queries: no body to check)
const contract = watchContract(fake.server, atprotoViolations);
afterEach(() => expect(contract.take()).toEqual([]));
let adapter: NetworkAdapter;
const creds = { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' };
const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const content = (text: string): PublishContent => ({ text, media: [], thread: [], send_key: 'post-1:bluesky' });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const seed = (n: number, text: string, at: number, repost = false) =>
  fake.feed.push({ uri: `at://did:plc:alice/app.bsky.feed.post/old${n}`, cid: `c${n}`, text, createdAt: new Date(at).toISOString(), repost });
const readBack = (text: string) => adapter.readBack!(content(text), query(text), testContext(creds, { clock }).ctx);
const feeds = () => fake.calls('app.bsky.feed.getAuthorFeed');

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => { fake.reset(); clock.ms = T0; adapter = createBlueskyAdapter({ apiBase: fake.url }); });

it('finds the post a worker sent in the author feed: its at:// URI and bsky.app link, with the session token', async () => {
  seed(1, 'old', T0 - 3_600_000);
  clock.ms = T0 + 4_000;
  const sent = await adapter.publish(content('Hello sky #tag'), testContext(creds, { clock }).ctx);
  expect(await readBack('Hello sky #tag')).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
  const [feed] = feeds();
  expect(Object.fromEntries(feed.url.searchParams)).toEqual({ actor: 'did:plc:alice', limit: '50', filter: 'posts_with_replies' });
  expect(feed.headers.authorization).toBe('Bearer access-jwt-1');
  expect(feeds()).toHaveLength(1);
});

it('a repost of the same text is not our post; absent once the feed reaches past the window', async () => {
  seed(2, 'the post', T0 + 1_000, true);
  seed(1, 'older', T0 - 3_600_000);
  expect(await readBack('the post')).toEqual({ state: 'absent' });
  expect(feeds()).toHaveLength(1);
});

it('a page that does not reach back to since: the next page (cursor) is read', async () => {
  for (let i = 0; i < 60; i++) seed(i, i === 55 ? 'the post' : `noise ${i}`, T0 + 50_000 - i * 100);
  expect(await readBack('the post')).toEqual({ state: 'found', id: 'at://did:plc:alice/app.bsky.feed.post/old55', url: 'https://bsky.app/profile/alice.test/post/old55' });
  expect(feeds().map((r) => r.url.searchParams.get('cursor'))).toEqual([null, '50']);
  fake.reset();
  for (let i = 0; i < 60; i++) seed(i, `noise ${i}`, T0 + 50_000 - i * 100);
  expect(await readBack('the post')).toEqual({ state: 'absent' });
});

it('an HTTP error or a failed sign-in → unreadable, never a throw', async () => {
  fake.override('app.bsky.feed.getAuthorFeed', { status: 502, body: { error: 'UpstreamFailure' } });
  expect(await readBack('x')).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 502') });
  const out = await adapter.readBack!(content('x'), query('x'), testContext({ ...creds, app_password: 'wrong' }, { clock }).ctx);
  expect(out).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('sign-in') });
});
