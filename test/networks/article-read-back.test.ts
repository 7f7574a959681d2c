import { createDevtoAdapter } from '../../shared/networks/devto';
import { createHashnodeAdapter } from '../../shared/networks/hashnode';
import { createWordpressAdapter } from '../../shared/networks/wordpress';
import type { PublishContent, ReadBackQuery } from '../../shared/ports/networks';
import { DEVTO_KEY, FakeDevto } from '../../shared/networks/devto/simulator';
import { FakeHashnode, HASHNODE_TOKEN, PUB_ID } from '../../shared/networks/hashnode/simulator';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from '../../shared/networks/wordpress/simulator';
import { ManualClock } from '../support/clock';
import { testContext } from './context';

/** Read-back of the article networks (dev.to, WordPress, Hashnode) against their loopback fakes. */

const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
const T0 = clock.now();
const iso = (ms: number) => new Date(ms).toISOString();
const content = (text: string, title?: string): PublishContent => ({ text, ...(title ? { title } : {}), media: [], thread: [], send_key: 'k1' });
const query = (text: string, title?: string): ReadBackQuery => ({ text, ...(title ? { title } : {}), since: T0, until: T0 + 60_000 });
const ctx = (creds: Record<string, string>) => testContext(creds, { clock }).ctx;

describe('dev.to', () => {
  const fake = new FakeDevto();
  let adapter: ReturnType<typeof createDevtoAdapter>;
  const creds = { api_key: DEVTO_KEY };
  const seed = (id: number, title: string, body: string, at: number) =>
    fake.articles.push({ id, title, body_markdown: body, url: `https://dev.to/ada/a-${id}`, published: true, published_at: iso(at) });
  const lists = () => fake.requests.filter((r) => r.path === '/api/articles/me/published');
  beforeAll(async () => { await fake.start(); adapter = createDevtoAdapter({ apiBase: fake.url }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); clock.ms = T0; });

  it('finds the article a worker published: id and URL, from the published articles with the api-key', async () => {
    seed(7, 'Old', 'old body', T0 - 86_400_000);
    clock.ms = T0 + 3_000;
    const sent = await adapter.publish(content('# My post\n\nBody #typescript'), ctx(creds));
    expect(await adapter.readBack!(content('# My post\n\nBody #typescript'), query('# My post\n\nBody #typescript'), ctx(creds)))
      .toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ page: '1', per_page: '30' });
    expect(list.headers['api-key']).toBe(DEVTO_KEY);
    expect(list.headers.accept).toBe('application/vnd.forem.api-v1+json');
  });

  it('the same body under another title is not ours; absent once the listing reaches past since', async () => {
    seed(9, 'Another title', 'Body', T0 + 1_000);
    seed(8, 'Title', 'Body', T0 - 86_400_000);
    expect(await adapter.readBack!(content('Body', 'Title'), query('Body', 'Title'), ctx(creds))).toEqual({ state: 'absent' });
    expect(lists()).toHaveLength(1);
  });

  it('a full page inside the window: the next page is read', async () => {
    for (let i = 0; i < 35; i++) seed(100 - i, i === 33 ? 'Title' : `Other ${i}`, 'Body', T0 + 50_000 - i * 100);
    expect(await adapter.readBack!(content('Body', 'Title'), query('Body', 'Title'), ctx(creds))).toEqual({ state: 'found', id: '67', url: 'https://dev.to/ada/a-67' });
    expect(lists().map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('an HTTP error → unreadable; a draft connection → unreadable (drafts carry no date)', async () => {
    fake.replies.published = { status: 500, body: { error: 'boom', status: 500 } };
    expect(await adapter.readBack!(content('x'), query('x'), ctx(creds))).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 500') });
    expect(await adapter.readBack!(content('x'), query('x'), ctx({ ...creds, default_status: 'draft' }))).toMatchObject({ state: 'unreadable' });
  });
});

describe('WordPress', () => {
  const wp = new FakeWordpress();
  const adapter = createWordpressAdapter();
  let creds: Record<string, string>;
  const seed = (id: number, title: string, html: string, at: number, status = 'publish') =>
    wp.posts.push({ id, link: `${wp.url}/?p=${id}`, status, date_gmt: iso(at).slice(0, 19), title: { raw: title }, content: { raw: html } });
  const lists = () => wp.requests.filter((r) => r.method === 'GET' && r.path === '/wp-json/wp/v2/posts');
  beforeAll(async () => { await wp.start(); wp.now = () => clock.now(); creds = { site_url: wp.url, username: WP_USER, app_password: WP_APP_PASSWORD }; });
  afterAll(() => wp.stop());
  beforeEach(() => { wp.reset(); clock.ms = T0; });

  it('finds the post a worker created: the HTML we sent (context=edit) and its title, with Basic auth', async () => {
    clock.ms = T0 + 2_000;
    const text = 'Fish & chips\n\nsecond <para>';
    const sent = await adapter.publish(content(text, 'A & B'), ctx(creds));
    expect(await adapter.readBack!(content(text, 'A & B'), query(text, 'A & B'), ctx(creds))).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(Object.fromEntries(list.url.searchParams)).toEqual({ context: 'edit', status: 'publish', author: '3', orderby: 'date', order: 'desc', per_page: '20', page: '1' });
    expect(list.headers.authorization).toBe(FakeWordpress.basic());
  });

  it('drafts are listed with status=draft; absent once the listing reaches past since', async () => {
    seed(5, 'Title', '<p>Body</p>', T0 - 86_400_000, 'draft');
    expect(await adapter.readBack!(content('Body', 'Title'), query('Body', 'Title'), ctx({ ...creds, default_status: 'draft' }))).toEqual({ state: 'absent' });
    expect(lists()[0].url.searchParams.get('status')).toBe('draft');
  });

  it('several pages inside the window (X-WP-TotalPages): the next pages are read until the end', async () => {
    for (let i = 0; i < 25; i++) seed(200 - i, `Other ${i}`, '<p>Body</p>', T0 + 50_000 - i * 100);
    expect(await adapter.readBack!(content('Body', 'Title'), query('Body', 'Title'), ctx(creds))).toEqual({ state: 'absent' });
    expect(lists().map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('an HTTP error → unreadable', async () => {
    expect(await adapter.readBack!(content('x'), query('x'), ctx({ ...creds, app_password: 'wrong' }))).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 401') });
  });
});

describe('Hashnode', () => {
  const fake = new FakeHashnode();
  let adapter: ReturnType<typeof createHashnodeAdapter>;
  const creds = { token: HASHNODE_TOKEN, publication: PUB_ID };
  const seed = (n: number, title: string, markdown: string, at: number) =>
    fake.posts.push({ id: `6a603fb103e2cb323e78${String(n).padStart(4, '0')}`, title, url: `https://ada.hashnode.dev/p${n}`, publishedAt: iso(at), content: { markdown } });
  const lists = () => fake.requests.filter((r) => JSON.stringify(r.json).includes('publication(id: $id)'));
  beforeAll(async () => { await fake.start(); adapter = createHashnodeAdapter({ apiBase: fake.url }); fake.now = () => clock.now(); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); clock.ms = T0; });

  it('finds the post a worker published in the publication posts, with the raw token', async () => {
    clock.ms = T0 + 1_000;
    const sent = await adapter.publish(content('Hello **world**', 'Hi'), ctx(creds));
    expect(await adapter.readBack!(content('Hello **world**', 'Hi'), query('Hello **world**', 'Hi'), ctx(creds))).toEqual({ state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url });
    const [list] = lists();
    expect(list.headers.authorization).toBe(HASHNODE_TOKEN);
    expect((list.json as { variables: unknown }).variables).toEqual({ id: PUB_ID, first: 20 });
  });

  it('absent once the posts reach past since; a page inside the window goes on with the end cursor', async () => {
    seed(2, 'Title', 'Other', T0 + 1_000);
    seed(1, 'Title', 'Body', T0 - 86_400_000);
    expect(await adapter.readBack!(content('Body', 'Title'), query('Body', 'Title'), ctx(creds))).toEqual({ state: 'absent' });
    fake.reset();
    for (let i = 0; i < 25; i++) seed(100 + i, 'Title', i === 22 ? 'Body' : `Other ${i}`, T0 + 50_000 - i * 100);
    expect(await adapter.readBack!(content('Body', 'Title'), query('Body', 'Title'), ctx(creds))).toEqual({ state: 'found', id: '6a603fb103e2cb323e780122', url: 'https://ada.hashnode.dev/p122' });
    expect(lists().map((r) => (r.json as { variables: { after?: string } }).variables.after)).toEqual([undefined, '20']);
  });

  it('an HTTP or GraphQL error → unreadable', async () => {
    expect(await adapter.readBack!(content('x'), query('x'), ctx({ ...creds, token: 'bad' }))).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('hashnode answered HTTP 200') });
    fake.replies.posts = { status: 502, body: 'bad gateway' };
    expect(await adapter.readBack!(content('x'), query('x'), ctx(creds))).toEqual({ state: 'unreadable', reason: expect.stringContaining('HTTP 502') });
  });
});
