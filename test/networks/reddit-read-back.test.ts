import { createRedditAdapter, REDDIT_DEFAULT_USER_AGENT } from '../../shared/networks/reddit';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { RedditFake } from '../../shared/networks/reddit/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

const fake = new RedditFake();
let adapter: ReturnType<typeof createRedditAdapter>;
let creds: Record<string, string>;
const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'k', subreddit: 'test', ...over });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const ctx = () => testContext(creds, { clock }).ctx;
const seed = (n: number, title: string, selftext: string, at: number, subreddit = 'test') => fake.submitted.push({
  name: `t3_old${n}`, subreddit, title, is_self: true, selftext, url: `https://www.reddit.com/r/${subreddit}/comments/old${n}/x/`,
  permalink: `/r/${subreddit}/comments/old${n}/x/`, created_utc: Math.floor(at / 1000),
});
const lists = () => fake.requests.filter((r) => r.path === '/user/acme_team/submitted');

beforeAll(async () => {
  await fake.start();
  adapter = createRedditAdapter({ apiBase: fake.url });
  fake.now = () => clock.now();
});
afterAll(() => fake.stop());
beforeEach(() => { fake.reset(); clock.ms = T0; creds = { access_token: fake.token(), username: 'acme_team', user_id: 'k3x9q' }; });

it('finds the submission a worker made: same subreddit, title and body; bearer token and User-Agent', async () => {
  clock.ms = T0 + 2_000;
  const text = 'Launch day\nWe ship & <celebrate>';
  const sent = await adapter.publish(content(text), ctx());
  expect(sent).toMatchObject({ ok: true });
  expect(await adapter.readBack!(content(text), query(text), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
  const [list] = lists();
  expect(Object.fromEntries(list.url.searchParams)).toEqual({ sort: 'new', limit: '100', raw_json: '1' });
  expect(list.headers.authorization).toBe(`Bearer ${creds.access_token}`);
  expect(list.headers['user-agent']).toBe(REDDIT_DEFAULT_USER_AGENT);
});

it('the same title and body in another subreddit is not ours; absent once the listing reaches past since', async () => {
  seed(3, 'Launch day', 'Body', T0 + 1_000, 'acme');
  seed(2, 'Launch day', 'Body', T0 - 3_600_000);
  expect(await adapter.readBack!(content('Launch day\nBody'), query('Launch day\nBody'), ctx())).toEqual({ state: 'absent' });
  expect(lists()).toHaveLength(1);
});

it('a full page inside the window: the next page (after) is read', async () => {
  for (let i = 0; i < 120; i++) seed(i, 'Launch day', i === 110 ? 'Body' : `other ${i}`, T0 + 50_000 - i * 100);
  expect(await adapter.readBack!(content('Launch day\nBody'), query('Launch day\nBody'), ctx())).toEqual({ state: 'found', id: 't3_old110', url: 'https://www.reddit.com/r/test/comments/old110/x/' });
  expect(lists().map((r) => r.url.searchParams.get('after'))).toEqual([null, 't3_old99']);
});

it('an HTTP error → unreadable', async () => {
  fake.failNext('GET /user/acme_team/submitted', { status: 503, body: { message: 'Service Unavailable', error: 503 } });
  expect(await adapter.readBack!(content('a\nb'), query('a\nb'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 503') });
});
