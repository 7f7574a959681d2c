import { createMastodonAdapter } from '../../shared/networks/mastodon';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

const fake = new MastodonFake();
const adapter = createMastodonAdapter();
const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
let creds: Record<string, string>;
const content = (text: string): PublishContent => ({ text, media: [], thread: [], send_key: 'post-1:mastodon' });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const seed = (id: string, text: string, at: number) =>
  fake.posted.push({ id, content: `<p>${text}</p>`, created_at: new Date(at).toISOString(), url: `${fake.url}/@alice/${id}` });
const readBack = (text: string) => adapter.readBack!(content(text), query(text), testContext(creds, { clock }).ctx);
const listings = () => fake.requests.filter((r) => r.path === '/api/v1/accounts/1/statuses');

beforeAll(async () => {
  await fake.start();
  creds = { instance_url: fake.url, access_token: 'good-token' };
  fake.now = () => clock.now();
});
afterAll(() => fake.stop());
beforeEach(() => { fake.reset(); clock.ms = T0; });

it('finds the status a worker sent: its id and URL, from the account statuses with the bearer token', async () => {
  seed('900', 'older post', T0 - 3_600_000);
  clock.ms = T0 + 5_000;
  const text = 'Hello & welcome\nline two @bob@other.example';
  const sent = await adapter.publish(content(text), testContext(creds, { clock }).ctx);
  expect(await readBack(text)).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
  expect(fake.calls.slice(1)).toEqual(['GET /api/v1/accounts/verify_credentials', 'GET /api/v1/accounts/1/statuses']);
  const [list] = listings();
  expect(Object.fromEntries(list.url.searchParams)).toEqual({ limit: '40', exclude_reblogs: 'true' });
  expect(list.headers.authorization).toBe('Bearer good-token');
});

it('absent when the listing reaches past the window without the text (one page read)', async () => {
  seed('903', 'something else', T0 + 10_000);
  seed('902', 'the post', T0 - 3_600_000);
  expect(await readBack('the post')).toEqual({ state: 'absent' });
  expect(listings()).toHaveLength(1);
});

it('a page that does not reach back to since: the next page (max_id) is read, then absent or found', async () => {
  for (let i = 0; i < 45; i++) seed(String(2000 - i), `noise ${i}`, T0 + 50_000 - i * 100);
  expect(await readBack('the post')).toEqual({ state: 'absent' });
  // a short page is not the end of the listing: only the empty page after it is
  expect(listings().map((r) => r.url.searchParams.get('max_id'))).toEqual([null, '1961', '1956']);
  fake.reset();
  for (let i = 0; i < 45; i++) seed(String(2000 - i), i === 42 ? 'the post' : `noise ${i}`, T0 + 50_000 - i * 100);
  expect(await readBack('the post')).toEqual({ state: 'found', id: '1958', url: `${fake.url}/@alice/1958` });
});

it('unreadable when five pages still do not reach back to since', async () => {
  for (let i = 0; i < 220; i++) seed(String(5000 - i), `noise ${i}`, T0 + 50_000 - i * 10);
  expect(await readBack('the post')).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('do not reach back') });
  expect(listings()).toHaveLength(5);
});

it('an HTTP error → unreadable with the status, never a throw', async () => {
  fake.override('GET /api/v1/accounts/1/statuses', { status: 503, body: { error: 'down' } });
  expect(await readBack('the post')).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 503') });
  const bad = await adapter.readBack!(content('x'), query('x'), testContext({ ...creds, access_token: 'nope' }, { clock }).ctx);
  expect(bad).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('HTTP 401') });
});
