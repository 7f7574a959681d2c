import { createFacebookAdapter } from '../../shared/networks/facebook';
import { createLinkedinAdapter, LINKEDIN_VERSION } from '../../shared/networks/linkedin';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { createYouTubeAdapter } from '../../shared/networks/youtube';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { createRedditAdapter } from '../../shared/networks/reddit';
import { RedditFake } from '../../shared/networks/reddit/simulator';
import { createDevtoAdapter } from '../../shared/networks/devto';
import { DEVTO_KEY, FakeDevto } from '../../shared/networks/devto/simulator';
import { createHashnodeAdapter } from '../../shared/networks/hashnode';
import { REMOVE_MUTATION, UPDATE_MUTATION } from '../../shared/networks/hashnode/manage';
import { FakeHashnode, HASHNODE_TOKEN, PUB_ID } from '../../shared/networks/hashnode/simulator';
import { FacebookFake } from '../../shared/networks/facebook/graph-simulator';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { testContext } from './context';

/** Deleting and editing published posts on the networks added after the first round: the exact requests. */

const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'pst_1:x', ...over });

async function publishedRef(adapter: NetworkAdapter, text: string, credentials: Record<string, string>, over: Partial<PublishContent> = {}) {
  const out = await adapter.publish(content(text, over), testContext(credentials).ctx);
  if (!out.ok) throw new Error(`publish failed: ${out.error}`);
  return { id: out.id, url: out.url };
}

describe('facebook', () => {
  const fake = new FacebookFake();
  let adapter: NetworkAdapter;
  let creds: Record<string, string>;
  beforeAll(async () => { await fake.start(); adapter = createFacebookAdapter({ apiBase: fake.url }); });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    const user = fake.userToken();
    creds = { access_token: user, page_id: '101', page_name: 'Acme Bakery', page_access_token: fake.pageToken(user, '101') };
  });

  it('delete: DELETE /v25.0/{post-id}?access_token=<page token>; a post already gone (code 100/33) counts as deleted', async () => {
    const ref = await publishedRef(adapter, 'Fresh bread', creds);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, Object.fromEntries(r.url.searchParams), r.text])).toEqual([
      ['DELETE', `/v25.0/${ref.id}`, { access_token: creds.page_access_token }, ''],
    ]);
    expect(fake.posts.find((p) => p.id === ref.id)).toBeUndefined();
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
  });

  it('edit: POST /v25.0/{post-id} {message} for a feed post, {description} for a video; a too-long text sends nothing', async () => {
    const ref = await publishedRef(adapter, 'Fresh bred', creds);
    const vid = await publishedRef(adapter, 'Oven', creds, { media: [{ url: 'https://cdn.example.com/oven.mp4', kind: 'video' }] });
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('Fresh bread'), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(await adapter.edit!(vid, content('Our oven'), testContext(creds).ctx)).toEqual({ ok: true, url: vid.url });
    expect(fake.requests.map((r) => [r.method, r.path, new URLSearchParams(r.text).toString()])).toEqual([
      ['POST', `/v25.0/${ref.id}`, new URLSearchParams({ message: 'Fresh bread', access_token: creds.page_access_token }).toString()],
      ['POST', `/v25.0/${vid.id}`, new URLSearchParams({ description: 'Our oven', access_token: creds.page_access_token }).toString()],
    ]);
    expect(fake.posts.find((p) => p.id === ref.id)?.message).toBe('Fresh bread');
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('a'.repeat(63207)), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('an expired token (190) is reauth, another Page\'s post (#200) is reauth, an edit of a deleted post is rejected with its what/fix', async () => {
    const ref = await publishedRef(adapter, 'x', creds);
    expect(await adapter.delete!(ref, testContext({ ...creds, page_access_token: 'expired' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    const other = fake.pageToken(creds.access_token, '102');
    expect(await adapter.edit!(ref, content('y'), testContext({ ...creds, page_id: '102', page_access_token: other }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    await adapter.delete!(ref, testContext(creds).ctx);
    expect(await adapter.edit!(ref, content('y'), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('deleted') });
  });
});

describe('linkedin', () => {
  const fake = new LinkedinFake();
  let adapter: NetworkAdapter;
  let creds: Record<string, string>;
  beforeAll(async () => { await fake.start(); adapter = createLinkedinAdapter({ apiBase: fake.url }); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); creds = { access_token: fake.token(), author_urn: `urn:li:person:${fake.sub}` }; });

  it('delete: DELETE /rest/posts/{encoded urn} with the versioned headers (204); a post already gone (404) counts as deleted', async () => {
    const ref = await publishedRef(adapter, 'Hello network', creds);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.headers['linkedin-version'], r.headers['x-restli-protocol-version'], r.text]))
      .toEqual([['DELETE', `/rest/posts/${encodeURIComponent(ref.id)}`, `Bearer ${creds.access_token}`, LINKEDIN_VERSION, '2.0.0', '']]);
    expect(fake.posts.find((p) => p.id === ref.id)).toBeUndefined();
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
  });

  it('edit: POST /rest/posts/{urn} X-RestLi-Method PARTIAL_UPDATE {patch: {$set: {commentary}}} (little text escaped); too long sends nothing', async () => {
    const ref = await publishedRef(adapter, 'Helo', creds);
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('Hello (again)'), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers['x-restli-method'], r.json])).toEqual([
      ['POST', `/rest/posts/${encodeURIComponent(ref.id)}`, 'PARTIAL_UPDATE', { patch: { $set: { commentary: 'Hello \\(again\\)' } } }],
    ]);
    expect(fake.posts.find((p) => p.id === ref.id)?.commentary).toBe('Hello \\(again\\)');
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('a'.repeat(3001)), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a revoked token (401) is reauth; a refused update (422) is rejected; an edit of a deleted post is rejected; a non-post id sends nothing', async () => {
    const ref = await publishedRef(adapter, 'x', creds);
    expect(await adapter.delete!(ref, testContext({ ...creds, access_token: 'revoked' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    fake.failNext(`POST /rest/posts/${encodeURIComponent(ref.id)}`, LinkedinFake.error(422, 'Cannot update the commentary of a sponsored post'));
    expect(await adapter.edit!(ref, content('y'), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('422') });
    await adapter.delete!(ref, testContext(creds).ctx);
    expect(await adapter.edit!(ref, content('y'), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('deleted') });
    fake.requests.length = 0;
    expect(await adapter.delete!({ id: 'urn:li:video:1' }, testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('youtube', () => {
  const fake = new YouTubeFake();
  let adapter: NetworkAdapter;
  const creds = () => ({ access_token: fake.token, channel_id: 'UCacme000000000000000001', channel_title: 'Acme Channel' });
  const ref = { id: 'vidAcme0001', url: 'https://www.youtube.com/watch?v=vidAcme0001' };
  beforeAll(async () => { await fake.start(); adapter = createYouTubeAdapter({ apiBase: fake.url, uploadBase: fake.url }); });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    fake.uploads.unshift({ videoId: ref.id, title: 'Old title', description: 'old text', publishedAt: '2026-11-27T06:00:00Z', categoryId: '27', tags: ['bread'] });
  });

  it('delete: DELETE /youtube/v3/videos?id= with the bearer token (204); videoNotFound counts as deleted', async () => {
    expect(await adapter.delete!(ref, testContext(creds()).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, Object.fromEntries(r.url.searchParams), r.headers.authorization])).toEqual([
      ['DELETE', '/youtube/v3/videos', { id: ref.id }, `Bearer ${fake.token}`],
    ]);
    expect(fake.uploads).toHaveLength(0);
    expect(await adapter.delete!(ref, testContext(creds()).ctx)).toEqual({ ok: true });
  });

  it('edit: reads the snippet, then PUT part=snippet {id, snippet} keeping category and tags; title kept when none is sent', async () => {
    expect(await adapter.edit!(ref, content('new text', { title: 'New title' }), testContext(creds()).ctx)).toEqual({ ok: true, url: ref.url });
    expect(await adapter.edit!(ref, content('newer text'), testContext(creds()).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.requests.map((r) => [r.method, r.path, Object.fromEntries(r.url.searchParams), r.json])).toEqual([
      ['GET', '/youtube/v3/videos', { part: 'snippet', id: ref.id }, undefined],
      ['PUT', '/youtube/v3/videos', { part: 'snippet' }, { id: ref.id, snippet: { categoryId: '27', tags: ['bread'], title: 'New title', description: 'new text' } }],
      ['GET', '/youtube/v3/videos', { part: 'snippet', id: ref.id }, undefined],
      ['PUT', '/youtube/v3/videos', { part: 'snippet' }, { id: ref.id, snippet: { categoryId: '27', tags: ['bread'], title: 'New title', description: 'newer text' } }],
    ]);
    expect(fake.uploads[0]).toMatchObject({ title: 'New title', description: 'newer text', categoryId: '27', tags: ['bread'] });
  });

  it('a refused token is reauth; a refused title is rejected before the update; quota is rate_limited; a deleted video is rejected', async () => {
    expect(await adapter.delete!(ref, testContext({ ...creds(), access_token: 'expired' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('x', { title: 'a <b>' }), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(fake.requests.map((r) => r.method)).toEqual(['GET']);
    fake.failNext('PUT /youtube/v3/videos', YouTubeFake.error(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'));
    expect(await adapter.edit!(ref, content('x'), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'rate_limited' });
    await adapter.delete!(ref, testContext(creds()).ctx);
    expect(await adapter.edit!(ref, content('y'), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('deleted') });
  });
});

describe('reddit', () => {
  const fake = new RedditFake();
  let adapter: NetworkAdapter;
  let creds: Record<string, string>;
  beforeAll(async () => { await fake.start(); adapter = createRedditAdapter({ apiBase: fake.url }); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); creds = { access_token: fake.token(), username: 'acme_team', user_id: 'k3x9q' }; });
  const sub = { subreddit: 'test', title: 'Bread news' };

  it('delete: POST /api/del {id: t3_…} with the bearer token and our User-Agent; a repeat is fine', async () => {
    const ref = await publishedRef(adapter, 'fresh today', creds, sub);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.headers['user-agent'], Object.fromEntries(new URLSearchParams(r.text))])).toEqual([
      ['POST', '/api/del', `Bearer ${creds.access_token}`, expect.stringMatching(/^(?!node|undici)\S/), { id: ref.id }],
    ]);
    expect(fake.submitted.find((p) => p.name === ref.id)).toBeUndefined();
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
  });

  it('edit: POST /api/editusertext {api_type: json, thing_id, text} for a self post; a link post is refused without a call', async () => {
    const ref = await publishedRef(adapter, 'fresh todya', creds, sub);
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('fresh today', sub), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.requests.map((r) => [r.method, r.path, Object.fromEntries(new URLSearchParams(r.text))])).toEqual([
      ['POST', '/api/editusertext', { api_type: 'json', thing_id: ref.id, text: 'fresh today' }],
    ]);
    expect(fake.submitted.find((p) => p.name === ref.id)?.selftext).toBe('fresh today');
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('https://example.com/bread', sub), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('self') });
    expect(fake.requests).toHaveLength(0);
  });

  it('a refused token is reauth; Reddit\'s NOT_AUTHOR (a deleted or link post) is rejected with its reason; a non-t3 id sends nothing', async () => {
    const ref = await publishedRef(adapter, 'x', creds, sub);
    expect(await adapter.delete!(ref, testContext({ ...creds, access_token: 'revoked' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    await adapter.delete!(ref, testContext(creds).ctx);
    expect(await adapter.edit!(ref, content('y', sub), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('NOT_AUTHOR') });
    fake.requests.length = 0;
    expect(await adapter.delete!({ id: 't1_abc' }, testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('dev.to (delete = unpublish: the API has no delete)', () => {
  const fake = new FakeDevto();
  let adapter: NetworkAdapter;
  const creds = { api_key: DEVTO_KEY };
  beforeAll(async () => { await fake.start(); adapter = createDevtoAdapter({ apiBase: fake.url }); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); fake.server.requests.length = 0; });

  it('delete: PUT /api/articles/{id} {article: {published: false}} with the api-key (back to a draft); an unknown article counts as gone', async () => {
    const ref = await publishedRef(adapter, 'Body text', creds, { title: 'Bread' });
    fake.server.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.server.requests.map((r) => [r.method, r.path, r.headers['api-key'], r.json])).toEqual([['PUT', `/api/articles/${ref.id}`, DEVTO_KEY, { article: { published: false } }]]);
    expect(fake.articles[0]).toMatchObject({ published: false, published_at: null });
    expect(await adapter.delete!({ id: '999999' }, testContext(creds).ctx)).toEqual({ ok: true });
  });

  it('edit: PUT /api/articles/{id} {article: {title, body_markdown}}; a too-long title sends nothing', async () => {
    const ref = await publishedRef(adapter, 'Body txt', creds, { title: 'Bread' });
    fake.server.requests.length = 0;
    expect(await adapter.edit!(ref, content('Body text', { title: 'Fresh bread' }), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.server.requests.map((r) => [r.method, r.path, r.json])).toEqual([['PUT', `/api/articles/${ref.id}`, { article: { title: 'Fresh bread', body_markdown: 'Body text' } }]]);
    expect(fake.articles[0]).toMatchObject({ title: 'Fresh bread', body_markdown: 'Body text', published: true });
    fake.server.requests.length = 0;
    expect(await adapter.edit!(ref, content('x', { title: 't'.repeat(500) }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.server.requests).toHaveLength(0);
  });

  it('a refused api-key is reauth; a 422 is rejected; an edit of an unknown article is rejected', async () => {
    const ref = await publishedRef(adapter, 'Body', creds, { title: 'Bread' });
    expect(await adapter.delete!(ref, testContext({ api_key: 'wrong' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    fake.replies.update = { status: 422, body: { error: 'Body markdown has invalid front matter', status: 422 } };
    expect(await adapter.edit!(ref, content('Body', { title: 'T' }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('422') });
    fake.replies = {};
    expect(await adapter.edit!({ id: '999999' }, content('y', { title: 'T' }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('deleted') });
  });
});

describe('hashnode', () => {
  const fake = new FakeHashnode();
  let adapter: NetworkAdapter;
  const creds = { token: HASHNODE_TOKEN, publication: PUB_ID };
  beforeAll(async () => { await fake.start(); adapter = createHashnodeAdapter({ apiBase: `${fake.url}/` }); });
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); fake.server.requests.length = 0; });

  it('delete: removePost(input: {id}) with the token; a post already gone (NOT_FOUND) counts as deleted', async () => {
    const ref = await publishedRef(adapter, 'Body', creds, { title: 'Bread' });
    fake.server.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.server.requests.map((r) => [r.method, r.path, r.headers.authorization, r.json])).toEqual([
      ['POST', '/', HASHNODE_TOKEN, { query: REMOVE_MUTATION, variables: { input: { id: ref.id } } }],
    ]);
    expect(fake.posts).toHaveLength(0);
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
  });

  it('edit: updatePost(input: {id, title, contentMarkdown}) answers the post url', async () => {
    const ref = await publishedRef(adapter, 'Body txt', creds, { title: 'Bread' });
    fake.server.requests.length = 0;
    expect(await adapter.edit!(ref, content('Body text', { title: 'Fresh bread' }), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.server.requests.map((r) => r.json)).toEqual([{ query: UPDATE_MUTATION, variables: { input: { id: ref.id, title: 'Fresh bread', contentMarkdown: 'Body text' } } }]);
    expect(fake.posts[0]).toMatchObject({ title: 'Fresh bread', content: { markdown: 'Body text' } });
  });

  it('a refused token is reauth; an edit of a deleted post is rejected; a non-object id sends nothing', async () => {
    const ref = await publishedRef(adapter, 'Body', creds, { title: 'Bread' });
    expect(await adapter.delete!(ref, testContext({ ...creds, token: 'wrong' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    await adapter.delete!(ref, testContext(creds).ctx);
    expect(await adapter.edit!(ref, content('y', { title: 'T' }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('deleted') });
    fake.server.requests.length = 0;
    expect(await adapter.delete!({ id: '42' }, testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.server.requests).toHaveLength(0);
  });
});
