import { createXAdapter } from '../../shared/networks/x';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { XFake } from '../../shared/networks/x/simulator';
import { watchContract } from '../contracts/watch';
import { xApiViolations } from '../contracts/x-openapi';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

const fake = new XFake();
// every request the adapter sends to X is checked against X's published OpenAPI document
const contract = watchContract(fake.server, xApiViolations);
let adapter: ReturnType<typeof createXAdapter>;
let creds: Record<string, string>;
const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'post-1:x', ...over });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const ctx = () => testContext(creds, { clock }).ctx;
const seed = (n: number, text: string, at: number) =>
  fake.tweets.push({ id: String(1_800_000_000_000_000_000n + BigInt(n)), body: { text }, created_at: new Date(at).toISOString() });
const lists = () => fake.requests.filter((r) => r.path === `/2/users/${fake.user.id}/tweets`);

beforeAll(async () => {
  await fake.start();
  adapter = createXAdapter({ apiBase: fake.url, chunkSize: 64 * 1024, reserveMs: 50 });
  creds = { access_token: fake.token, user_id: fake.user.id, username: fake.user.username };
  fake.now = () => clock.now();
});
afterAll(() => fake.stop());
afterEach(() => expect(contract.take()).toEqual([]));
beforeEach(() => { fake.reset(); clock.ms = T0; });

it('finds the post a worker sent in the user timeline: t.co links, the media link and &amp; undone; bearer token', async () => {
  fake.files.set('a.png', { type: 'image/png', bytes: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cf00000301010018dd8db00000000049454e44ae426082', 'hex') });
  clock.ms = T0 + 3_000;
  const text = 'Ship & tell <3 https://example.com/launch?x=1';
  const media = [{ url: fake.mediaUrl('a.png'), kind: 'image' as const }];
  const sent = await adapter.publish(content(text, { media }), testContext(creds, { clock }).ctx);
  expect(sent).toMatchObject({ ok: true, status: 'published' });
  expect(await adapter.readBack!(content(text, { media }), query(text), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
  const [list] = lists();
  expect(Object.fromEntries(list.url.searchParams)).toEqual({
    start_time: '2026-11-27T05:58:00Z', max_results: '100', 'tweet.fields': 'created_at,entities,note_tweet', exclude: 'retweets',
  });
  expect(list.headers.authorization).toBe(`Bearer ${fake.token}`);
});

it('absent when the window holds other posts only (X filters by start_time; no next_token = covered)', async () => {
  seed(1, 'the post', T0 - 3_600_000);
  seed(2, 'another', T0 + 1_000);
  expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'absent' });
  expect(lists()).toHaveLength(1);
});

it('more posts in the window than a page: the next page (pagination_token) is read', async () => {
  for (let i = 0; i < 130; i++) seed(i, i === 5 ? 'the post' : `noise ${i}`, T0 + i * 100);
  expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'found', id: '1800000000000000005', url: 'https://x.com/acmehq/status/1800000000000000005' });
  expect(lists().map((r) => r.url.searchParams.get('pagination_token'))).toEqual([null, '100']);
});

it('an HTTP error → unreadable', async () => {
  fake.failNext(`GET /2/users/${fake.user.id}/tweets`, { status: 429, body: { title: 'Too Many Requests', status: 429 } });
  expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 429') });
});
