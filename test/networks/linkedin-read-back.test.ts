import { createLinkedinAdapter, LINKEDIN_VERSION } from '../../shared/networks/linkedin';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

const fake = new LinkedinFake();
let adapter: ReturnType<typeof createLinkedinAdapter>;
let creds: Record<string, string>;
const author = 'urn:li:person:abc123XYZ';
const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const content = (text: string): PublishContent => ({ text, media: [], thread: [], send_key: 'k' });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const ctx = () => testContext(creds, { clock }).ctx;
const seed = (n: number, commentary: string, at: number, by = author) => fake.posts.push({ id: `urn:li:share:6${n}`, author: by, commentary, createdAt: at });
const lists = () => fake.requests.filter((r) => r.method === 'GET' && r.path === '/rest/posts');

beforeAll(async () => { await fake.start(); adapter = createLinkedinAdapter({ apiBase: fake.url }); fake.now = () => clock.now(); });
afterAll(() => fake.stop());
beforeEach(() => { fake.reset(); clock.ms = T0; creds = { access_token: fake.token(), author_urn: author }; });

it('finds the post a worker created by its escaped commentary, from find-by-author with the version headers', async () => {
  clock.ms = T0 + 2_000;
  const text = 'Hiring (remote) #jobs @ Acme';
  const sent = await adapter.publish(content(text), ctx());
  expect(sent).toMatchObject({ ok: true });
  expect(await adapter.readBack!(content(text), query(text), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
  const [list] = lists();
  expect(Object.fromEntries(list.url.searchParams)).toEqual({ author, q: 'author', count: '20', sortBy: 'CREATED', start: '0' });
  expect(list.headers).toMatchObject({ authorization: `Bearer ${creds.access_token}`, 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' });
});

it('absent once the posts reach past since; a full page inside the window goes on with start', async () => {
  seed(2, 'other', T0 + 1_000);
  seed(1, 'the post', T0 - 86_400_000);
  expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'absent' });
  fake.posts.length = 0;
  fake.requests.length = 0;
  for (let i = 0; i < 25; i++) seed(100 + i, i === 21 ? 'the post' : `noise ${i}`, T0 + 50_000 - i * 100);
  expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'found', id: 'urn:li:share:6121', url: 'https://www.linkedin.com/feed/update/urn:li:share:6121' });
  expect(lists().map((r) => r.url.searchParams.get('start'))).toEqual(['0', '20']);
});

it('403 (no read scope) or any HTTP error → unreadable', async () => {
  fake.failNext('GET /rest/posts', LinkedinFake.error(403, 'Not enough permissions to access: partnerApiPostsExternal.FINDER-author'));
  expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 403') });
});
