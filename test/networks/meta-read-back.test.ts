import { createFacebookAdapter } from '../../shared/networks/facebook';
import { createInstagramAdapter } from '../../shared/networks/instagram';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { FacebookFake } from '../../shared/networks/facebook/graph-simulator';
import { InstagramFake } from '../../shared/networks/instagram/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

/** Read-back of the Meta networks (Facebook Page posts, Instagram media) against their loopback Graph fakes. */

const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'k', ...over });
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });

describe('Facebook Page', () => {
  const fake = new FacebookFake();
  let adapter: ReturnType<typeof createFacebookAdapter>;
  let creds: Record<string, string>;
  const ctx = () => testContext(creds, { clock }).ctx;
  const seed = (n: number, message: string, at: number, page = '101') =>
    fake.posts.push({ page, id: `${page}_${n}`, message, created_time: graphTime(at), permalink_url: `https://www.facebook.com/${page}/posts/${n}` });
  const lists = () => fake.requests.filter((r) => r.path.endsWith('/101/published_posts'));
  beforeAll(async () => { await fake.start(); adapter = createFacebookAdapter({ apiBase: fake.url }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset(); clock.ms = T0;
    const user = fake.userToken();
    creds = { access_token: user, page_id: '101', page_name: 'Acme Bakery', page_access_token: fake.pageToken(user, '101') };
  });

  it('finds the post a worker made in published_posts, with the Page token', async () => {
    clock.ms = T0 + 2_000;
    const sent = await adapter.publish(content('Fresh bread today'), ctx());
    expect(await adapter.readBack!(content('Fresh bread today'), query('Fresh bread today'), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(list.path).toBe('/v25.0/101/published_posts');
    expect(Object.fromEntries(list.url.searchParams)).toEqual({
      fields: 'id,message,created_time,permalink_url', limit: '100', access_token: creds.page_access_token,
    });
  });

  it('absent once the posts reach past the claim without the text; another Page\'s post does not count', async () => {
    seed(1, 'the post', T0 + 1_000, '102');
    seed(2, 'other', T0 + 1_000);
    seed(3, 'the post', T0 - 86_400_000);
    expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'absent' });
  });

  it('more posts than a page: the next page (cursors.after) is read', async () => {
    for (let i = 0; i < 120; i++) seed(500 + i, i === 110 ? 'the post' : `noise ${i}`, T0 + 50_000 - i * 100);
    expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'found', id: '101_610', url: 'https://www.facebook.com/101/posts/610' });
    expect(lists().map((r) => r.url.searchParams.get('after'))).toEqual([null, '100']);
  });

  it('an HTTP error → unreadable; a reel is not read back', async () => {
    fake.failNext('GET /101/published_posts', FacebookFake.error(4, 'Application request limit reached', undefined, 403));
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 403') });
    expect(await adapter.readBack!(content('x', { options: { reel: true } }), query('x'), ctx())).toMatchObject({ state: 'unreadable' });
  });
});

describe('Instagram', () => {
  const fake = new InstagramFake();
  let adapter: ReturnType<typeof createInstagramAdapter>;
  let creds: Record<string, string>;
  const ig = '17841400000000001';
  const ctx = () => testContext(creds, { clock }).ctx;
  const seed = (n: number, caption: string, at: number) =>
    fake.published.push({ ig, id: `180${n}`, caption, timestamp: graphTime(at), permalink: `https://www.instagram.com/p/S${n}/` });
  const lists = () => fake.requests.filter((r) => r.method === 'GET' && r.path === `/v25.0/${ig}/media`);
  beforeAll(async () => { await fake.start(); adapter = createInstagramAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset(); clock.ms = T0;
    const user = fake.userToken();
    creds = { access_token: user, ig_user_id: ig, username: 'acme.bakery', page_id: '101', page_access_token: fake.pageToken(user, '101') };
  });

  it('finds the media a worker published by its caption, with the Page token', async () => {
    seed(1, 'older', T0 - 86_400_000);
    clock.ms = T0 + 2_000;
    const media = [{ url: 'https://cdn.example.com/p1.jpg', kind: 'image' as const }];
    const sent = await adapter.publish(content('Croissants #fresh', { media }), ctx());
    expect(sent).toMatchObject({ ok: true, status: 'published' });
    expect(await adapter.readBack!(content('Croissants #fresh', { media }), query('Croissants #fresh'), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ fields: 'id,caption,timestamp,permalink', limit: '50', access_token: creds.page_access_token });
  });

  it('absent once the media reach past since; a full page inside the window goes on with cursors.after', async () => {
    seed(2, 'other', T0 + 1_000);
    seed(1, 'the post', T0 - 86_400_000);
    expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'absent' });
    expect(lists()).toHaveLength(1);
    fake.published.length = 0;
    fake.requests.length = 0;
    for (let i = 0; i < 60; i++) seed(100 + i, i === 55 ? 'the post' : `noise ${i}`, T0 + 50_000 - i * 100);
    expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'found', id: '180155', url: 'https://www.instagram.com/p/S155/' });
    expect(lists().map((r) => r.url.searchParams.get('after'))).toEqual([null, '50']);
  });

  it('an HTTP error → unreadable; a story is not read back', async () => {
    fake.failNext(`GET /${ig}/media`, FacebookFake.error(2, 'An unexpected error has occurred. Please retry your request later.', undefined, 500));
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 500') });
    expect(await adapter.readBack!(content('', { options: { story: true } }), query(''), ctx())).toMatchObject({ state: 'unreadable' });
  });
});
