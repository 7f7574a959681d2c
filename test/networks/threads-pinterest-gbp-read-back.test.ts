import { createGoogleBusinessAdapter } from '../../shared/networks/google_business';
import { createPinterestAdapter } from '../../shared/networks/pinterest';
import { createThreadsAdapter } from '../../shared/networks/threads';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { GoogleBusinessFake } from '../../shared/networks/google_business/simulator';
import { PinterestFake } from '../../shared/networks/pinterest/simulator';
import { ThreadsFake } from '../../shared/networks/threads/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';
import { pinterestApiViolations } from '../contracts/pinterest-openapi';
import { watchContract } from '../contracts/watch';

/** Read-back of Threads, Pinterest and Google Business Profile against their loopback fakes, with exact requests. */

const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const query = (text: string): ReadBackQuery => ({ text, since: T0, until: T0 + 60_000 });
const jpg = (n: number) => ({ url: `https://cdn.example.com/${n}.jpg`, kind: 'image' as const });

describe('Threads', () => {
  const fake = new ThreadsFake();
  let adapter: ReturnType<typeof createThreadsAdapter>;
  let creds: Record<string, string>;
  const ctx = () => testContext(creds, { clock }).ctx;
  const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'k', ...over });
  const lists = () => fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1.0/${fake.userId}/threads`);
  beforeAll(async () => { await fake.start(); adapter = createThreadsAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); clock.ms = T0; creds = { access_token: fake.token, threads_user_id: fake.userId, username: fake.username }; });

  it('finds the post a worker published in the profile\'s threads, asking only for posts since the send time', async () => {
    clock.ms = T0 + 2_000;
    const sent = await adapter.publish(content('Fresh bread today'), ctx());
    expect(sent).toMatchObject({ ok: true, status: 'published' });
    expect(await adapter.readBack!(content('Fresh bread today'), query('Fresh bread today'), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(Object.fromEntries(list.url.searchParams)).toEqual({
      fields: 'id,text,timestamp,permalink', since: String((T0 - 120_000) / 1000), limit: '100', access_token: fake.token,
    });
  });

  it('a carousel is found by its text; a first comment (a reply) is not in the listing', async () => {
    clock.ms = T0 + 1_000;
    const sent = await adapter.publish(content('Two loaves', { media: [jpg(1), jpg(2)], first_comment: 'Two loaves' }), ctx());
    expect(sent).toMatchObject({ ok: true, comment_id: expect.any(String) });
    expect(await adapter.readBack!(content('Two loaves'), query('Two loaves'), ctx())).toMatchObject({ state: 'found', id: sent.ok && sent.id });
  });

  it('absent when the listing ends without the text; more than a page → the next page (paging.cursors.after) is read', async () => {
    clock.ms = T0 + 1_000;
    await adapter.publish(content('something else'), ctx());
    expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toEqual({ state: 'absent' });
    fake.reset();
    clock.ms = T0 + 1_000;
    await adapter.publish(content('the post'), ctx());
    for (let i = 0; i < 100; i++) {
      const id = `17900000000${String(i).padStart(4, '0')}`;
      fake.published.set(id, { media_type: 'TEXT', text: `noise ${i}` });
      fake.publishedAt.set(id, T0 + 2_000 + i);
    }
    expect(await adapter.readBack!(content('the post'), query('the post'), ctx())).toMatchObject({ state: 'found' });
    expect(lists().map((r) => r.url.searchParams.get('after'))).toEqual([null, '100']);
  });

  it('an error answer → unreadable with the status; a connection without a user id → unreadable, nothing sent', async () => {
    fake.failNext(`GET /${fake.userId}/threads`, ThreadsFake.error('Application request limit reached', 4, undefined, 403));
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 403') });
    creds = { access_token: fake.token };
    const before = fake.requests.length;
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toMatchObject({ state: 'unreadable' });
    expect(fake.requests).toHaveLength(before);
  });
});

describe('Pinterest', () => {
  const fake = new PinterestFake();
  const contract = watchContract(fake.server, pinterestApiViolations, { answers: true });
  let adapter: ReturnType<typeof createPinterestAdapter>;
  let creds: Record<string, string>;
  const ctx = () => testContext(creds, { clock }).ctx;
  const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [jpg(1)], thread: [], send_key: 'k', ...over });
  const lists = (board = '549755885175') => fake.requests.filter((r) => r.method === 'GET' && r.path === `/v5/boards/${board}/pins`);
  beforeAll(async () => { await fake.start(); adapter = createPinterestAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); clock.ms = T0; creds = { access_token: fake.token, username: fake.username, board_id: '549755885175' }; });
  afterEach(() => expect(contract.take()).toEqual([]));

  it('finds the Pin on the default board by its description and title, with the bearer token', async () => {
    clock.ms = T0 + 2_000;
    const sent = await adapter.publish(content('Sourdough, step by step', { title: 'Sourdough' }), ctx());
    expect(sent).toMatchObject({ ok: true, status: 'published' });
    expect(await adapter.readBack!(content('Sourdough, step by step', { title: 'Sourdough' }), query('Sourdough, step by step'), ctx()))
      .toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ page_size: '250' });
    expect(list.headers.authorization).toBe(`Bearer ${fake.token}`);
  });

  it('reads the board the post named; a Pin with the same text but another title is not ours', async () => {
    clock.ms = T0 + 1_000;
    await adapter.publish(content('Rye', { title: 'Rye bread', options: { board_id: '549755885176' } }), ctx());
    expect(await adapter.readBack!(content('Rye', { title: 'Rye bread', options: { board_id: '549755885176' } }), query('Rye'), ctx())).toMatchObject({ state: 'found' });
    expect(lists('549755885176')).toHaveLength(1);
    expect(await adapter.readBack!(content('Rye', { title: 'Rye loaf', options: { board_id: '549755885176' } }), query('Rye'), ctx())).toEqual({ state: 'absent' });
  });

  it('a Pin from before the window is not ours, and more than a page → the bookmark is followed', async () => {
    clock.ms = T0 - 3_600_000;
    await adapter.publish(content('Old news'), ctx());
    expect(await adapter.readBack!(content('Old news'), query('Old news'), ctx())).toEqual({ state: 'absent' });
    clock.ms = T0 + 1_000;
    await adapter.publish(content('the pin'), ctx());
    for (let i = 0; i < 250; i++) fake.pins.push({ id: String(900 + i), body: { board_id: '549755885175', description: `noise ${i}` }, created_at: '2026-11-27T06:00:02-00:00' });
    expect(await adapter.readBack!(content('the pin'), query('the pin'), ctx())).toMatchObject({ state: 'found' });
    expect(lists().slice(-2).map((r) => r.url.searchParams.get('bookmark'))).toEqual([null, '250']);
  });

  it('an error answer → unreadable; no board anywhere → unreadable without a request', async () => {
    fake.failNext('GET /v5/boards/549755885175/pins', PinterestFake.error(429, 8, 'Rate limit exceeded.'));
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 429') });
    creds = { access_token: fake.token };
    const before = fake.requests.length;
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toMatchObject({ state: 'unreadable' });
    expect(fake.requests).toHaveLength(before);
  });
});

describe('Google Business Profile', () => {
  const fake = new GoogleBusinessFake();
  let adapter: ReturnType<typeof createGoogleBusinessAdapter>;
  let creds: Record<string, string>;
  const ctx = () => testContext(creds, { clock }).ctx;
  const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'k', ...over });
  const path = '/v4/accounts/1100/locations/2201/localPosts';
  const lists = () => fake.requests.filter((r) => r.method === 'GET' && r.path === path);
  beforeAll(async () => { await fake.start(); adapter = createGoogleBusinessAdapter({ apiBase: fake.url }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); clock.ms = T0; creds = { access_token: fake.token, account_id: '1100', location_id: '2201', location_title: 'Acme Bakery Kreuzberg' }; });

  it('finds the local post by its summary (id = name, url = searchUrl)', async () => {
    clock.ms = T0 + 2_000;
    const sent = await adapter.publish(content('Open late on Friday'), ctx());
    expect(sent).toMatchObject({ ok: true, status: 'published' });
    expect(await adapter.readBack!(content('Open late on Friday'), query('Open late on Friday'), ctx())).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ pageSize: '100' });
    expect(list.headers.authorization).toBe(`Bearer ${fake.token}`);
  });

  it('a location without posts answers {} → absent; more than a page → the nextPageToken is followed', async () => {
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'absent' });
    clock.ms = T0 + 1_000;
    await adapter.publish(content('the offer'), ctx());
    for (let i = 0; i < 100; i++) fake.posts.push({ name: `accounts/1100/locations/2201/localPosts/${900 + i}`, body: { topicType: 'STANDARD', summary: `noise ${i}` }, createTime: '2026-11-27T06:00:02Z' });
    expect(await adapter.readBack!(content('the offer'), query('the offer'), ctx())).toMatchObject({ state: 'found' });
    expect(lists().slice(-2).map((r) => r.url.searchParams.get('pageToken'))).toEqual([null, '100']);
  });

  it('an error answer → unreadable with the status', async () => {
    fake.failNext(`GET ${path}`, GoogleBusinessFake.error(403, 'PERMISSION_DENIED', 'The caller does not have permission'));
    expect(await adapter.readBack!(content('x'), query('x'), ctx())).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 403') });
  });
});
