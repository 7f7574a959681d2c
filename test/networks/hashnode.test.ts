import { createHashnodeAdapter, DRAFT_MUTATION, HASHNODE_MAX_BODY_BYTES, ME_QUERY, PUBLISH_MUTATION } from '../../shared/networks/hashnode';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { FakeHashnode, HASHNODE_TOKEN, PUB2_ID, PUB_ID } from '../../shared/networks/hashnode/simulator';
import { expireOnHang, testContext } from './context';

const fake = new FakeHashnode();
let adapter: NetworkAdapter;
const creds = { token: HASHNODE_TOKEN, publication: PUB_ID };

const content = (over: Partial<PublishContent> = {}): PublishContent =>
  ({ text: 'Hello **world**', media: [], thread: [], send_key: 'k1', ...over });

beforeAll(async () => {
  await fake.start();
  adapter = createHashnodeAdapter({ apiBase: `${fake.url}/` });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.server.requests.length = 0;
  fake.replies = {};
  fake.schema = 'legacy';
});

describe('hashnode verify', () => {
  it('queries me with the raw token and picks the first publication when none is given', async () => {
    const { ctx } = testContext({ token: ` ${HASHNODE_TOKEN} ` });
    expect(await adapter.verify(ctx)).toEqual({ ok: true, handle: '@ada', credentials: { token: HASHNODE_TOKEN, publication: PUB_ID } });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/');
    expect(req.headers.authorization).toBe(HASHNODE_TOKEN);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ query: ME_QUERY });
  });

  it('normalises a publication given by URL/host to its id, and default_status', async () => {
    const { ctx } = testContext({ token: HASHNODE_TOKEN, publication: 'https://blog.example.com/', default_status: 'DRAFT' });
    expect(await adapter.verify(ctx)).toMatchObject({ ok: true, credentials: { publication: PUB2_ID, default_status: 'draft' } });
  });

  it('an unknown publication → rejected listing the account publications', async () => {
    const { ctx } = testContext({ token: HASHNODE_TOKEN, publication: 'nope.hashnode.dev' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(out.ok === false && out.error).toContain(PUB_ID);
  });

  it('an account without publications → rejected', async () => {
    fake.replies.me = { status: 200, body: { data: { me: { id: 'u1', username: 'ada', publications: { edges: [] } } } } };
    const { ctx } = testContext({ token: HASHNODE_TOKEN });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(out.ok === false && out.error).toMatch(/no publication/);
  });

  it('a bad token (UNAUTHENTICATED with HTTP 200) → reauth without echoing it', async () => {
    const { ctx } = testContext({ token: 'bad-token-xyz' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(JSON.stringify(out)).not.toContain('bad-token-xyz');
  });
});

describe('hashnode publish', () => {
  it('publishPost with title, markdown, publicationId and tags [] → id and url', async () => {
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ title: 'Hello' }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '6a603fb103e2cb323e7851f6', url: 'https://ada.hashnode.dev/hello' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].headers.authorization).toBe(HASHNODE_TOKEN);
    expect(fake.body(0)).toEqual({
      query: PUBLISH_MUTATION,
      variables: { input: { publicationId: PUB_ID, title: 'Hello', contentMarkdown: 'Hello **world**', tags: [] } },
    });
  });

  it('resolves the publication first when the credentials carry none; title from the first line', async () => {
    const { ctx } = testContext({ token: HASHNODE_TOKEN });
    const out = await adapter.publish(content({ text: '# Big news\n\nDetails' }), ctx);
    expect(out).toMatchObject({ ok: true, id: '6a603fb103e2cb323e7851f6' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.body(0).query).toBe(ME_QUERY);
    expect(fake.body(1).variables?.input).toMatchObject({ publicationId: PUB_ID, title: 'Big news', contentMarkdown: '# Big news\n\nDetails' });
  });

  it('an image becomes coverImageOptions.coverImageURL', async () => {
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ title: 'Pic', media: [{ url: 'https://cdn.example.com/c.png', kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: true });
    expect(fake.requests).toHaveLength(1);
    expect(fake.body(0).variables?.input).toMatchObject({ coverImageOptions: { coverImageURL: 'https://cdn.example.com/c.png' } });
  });

  it('a server on the newer schema refuses coverImageOptions → resent once with coverImage', async () => {
    fake.schema = 'current';
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ title: 'Pic', media: [{ url: 'https://cdn.example.com/c.png', kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: true, url: 'https://ada.hashnode.dev/hello' });
    expect(fake.requests).toHaveLength(2);
    const input = fake.body(1).variables?.input;
    expect(input).toMatchObject({ coverImage: 'https://cdn.example.com/c.png' });
    expect(input).not.toHaveProperty('coverImageOptions');
  });

  it('default_status draft → createDraft, returned with the draft URL', async () => {
    const { ctx } = testContext({ ...creds, default_status: 'draft' });
    const out = await adapter.publish(content({ title: 'Later' }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '6a603fb103e2cb323e785200', url: 'https://hashnode.com/draft/6a603fb103e2cb323e785200' });
    expect(fake.body(0)).toEqual({
      query: DRAFT_MUTATION,
      variables: { input: { publicationId: PUB_ID, title: 'Later', contentMarkdown: 'Hello **world**', tags: [] } },
    });
  });

  it('BAD_USER_INPUT → rejected with the message', async () => {
    fake.replies.publish = { status: 200, body: { data: null, errors: [{ message: 'Title is too short', extensions: { code: 'BAD_USER_INPUT' } }] } };
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toContain('Title is too short');
  });

  it('FORBIDDEN for a publication without Pro → rejected; other FORBIDDEN → reauth', async () => {
    fake.replies.publish = { status: 200, body: { errors: [{ message: 'Publication does not have an active Pro plan. Upgrade in your dashboard to access this via the API.', extensions: { code: 'FORBIDDEN' } }] } };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    fake.replies.publish = { status: 200, body: { errors: [{ message: 'You are not allowed to publish in this publication', extensions: { code: 'FORBIDDEN' } }] } };
    const { ctx: ctx2 } = testContext(creds);
    expect(await adapter.publish(content(), ctx2)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('HTTP 429 with Retry-After → rate_limited', async () => {
    fake.replies.publish = { status: 429, headers: { 'retry-after': '45' }, body: { errors: [{ message: 'Too many requests' }] } };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 45 });
  });

  it('a revoked token → reauth', async () => {
    const { ctx } = testContext({ ...creds, token: 'revoked' });
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('INTERNAL_SERVER_ERROR and HTTP 502 → transient', async () => {
    fake.replies.publish = { status: 200, body: { data: null, errors: [{ message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] } };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'transient' });
    fake.replies.publish = { status: 502, body: 'Bad gateway' };
    const { ctx: ctx2 } = testContext(creds);
    expect(await adapter.publish(content(), ctx2)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a hanging endpoint → timeout within the deadline', async () => {
    fake.replies.publish = { hang: true };
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

describe('hashnode check', () => {
  it('an article past the 100 KB request limit → text_too_long; publish sends nothing', async () => {
    const text = 'x'.repeat(HASHNODE_MAX_BODY_BYTES);
    const out = adapter.check(content({ title: 'T', text }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(out?.ok === false && out.error).toContain(String(HASHNODE_MAX_BODY_BYTES));
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content({ title: 'T', text }), ctx)).toMatchObject({ code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
    expect(adapter.check(content({ title: 'T', text: 'x'.repeat(HASHNODE_MAX_BODY_BYTES - 1000) }), creds)).toBeUndefined();
  });

  it('two media or a video → bad_media', () => {
    const img = { url: 'https://x/a.png', kind: 'image' as const };
    expect(adapter.check(content({ media: [img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ url: 'https://x/a.mp4', kind: 'video' }] }), creds)).toMatchObject({ code: 'bad_media' });
  });
});
