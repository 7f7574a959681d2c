import { createYouTubeAdapter } from '../../shared/networks/youtube';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

const fake = new YouTubeFake();
let adapter: ReturnType<typeof createYouTubeAdapter>;
let creds: Record<string, string>;
const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const clip = Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 7) % 251));
const content = (text: string, title = 'Launch day'): PublishContent => ({ text, title, media: [{ url: fake.mediaUrl('clip.mp4'), kind: 'video' }], thread: [], send_key: 'k' });
const query = (text: string, title = 'Launch day'): ReadBackQuery => ({ text, title, since: T0, until: T0 + 60_000 });
const ctx = () => testContext(creds, { clock, timeoutMs: 20_000 }).ctx;
const seed = (n: number, title: string, description: string, at: number) =>
  fake.uploads.push({ videoId: `Vid${n}`, title, description, publishedAt: new Date(at).toISOString() });
const lists = () => fake.requests.filter((r) => r.path === '/youtube/v3/playlistItems');

beforeAll(async () => {
  await fake.start();
  adapter = createYouTubeAdapter({ apiBase: fake.url, uploadBase: fake.url, chunkSize: 256 * 1024, reserveMs: 100 });
  creds = { access_token: fake.token, channel_id: 'UCacme000000000000000001', channel_title: 'Acme Channel' };
  fake.now = () => clock.now();
});
afterAll(() => fake.stop());
beforeEach(() => { fake.reset(); clock.ms = T0; fake.media.set('clip.mp4', { type: 'video/mp4', bytes: clip }); });

it('finds the video a worker uploaded in the channel uploads playlist by title and description', async () => {
  clock.ms = T0 + 2_000;
  const sent = await adapter.publish(content('Behind the scenes'), ctx());
  expect(sent).toMatchObject({ ok: true, status: 'published' });
  const out = await adapter.readBack!(content('Behind the scenes'), query('Behind the scenes'), ctx());
  expect(out).toEqual({ state: 'found', id: sent.ok && sent.id, url: `https://www.youtube.com/watch?v=${sent.ok && sent.id}` });
  const channels = fake.requests.filter((r) => r.method === 'GET' && r.path === '/youtube/v3/channels');
  expect(Object.fromEntries(channels[0].url.searchParams)).toEqual({ part: 'contentDetails', id: 'UCacme000000000000000001' });
  const [list] = lists();
  expect(Object.fromEntries(list.url.searchParams)).toEqual({ part: 'snippet', playlistId: 'UUacme000000000000000001', maxResults: '50' });
  expect(list.headers.authorization).toBe(`Bearer ${fake.token}`);
});

it('another title with the same description is not ours; absent once the uploads reach past since', async () => {
  seed(2, 'Other title', 'Body', T0 + 1_000);
  seed(1, 'Launch day', 'Body', T0 - 86_400_000);
  expect(await adapter.readBack!(content('Body'), query('Body'), ctx())).toEqual({ state: 'absent' });
  expect(lists()).toHaveLength(1);
});

it('a full page inside the window: the next page (pageToken) is read', async () => {
  for (let i = 0; i < 55; i++) seed(i, 'Launch day', i === 52 ? 'Body' : `other ${i}`, T0 + 50_000 - i * 100);
  expect(await adapter.readBack!(content('Body'), query('Body'), ctx())).toEqual({ state: 'found', id: 'Vid52', url: 'https://www.youtube.com/watch?v=Vid52' });
  expect(lists().map((r) => r.url.searchParams.get('pageToken'))).toEqual([null, '50']);
});

it('an HTTP error → unreadable', async () => {
  fake.failNext('GET /youtube/v3/playlistItems', YouTubeFake.error(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'));
  expect(await adapter.readBack!(content('Body'), query('Body'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 403') });
});
