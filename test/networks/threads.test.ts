import { createThreadsAdapter, createThreadsProvider } from '../../shared/networks/threads';
import { checkThreads } from '../../shared/networks/threads/limits';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { ThreadsFake } from '../../shared/networks/threads/simulator';
import { expireOnHang, testContext } from './context';
import { oauthApp } from './oauth-support';

/**
 * Threads through its loopback fake (graph.threads.net paths): the sign-in and token renewal, and every kind of post
 * with the exact requests the adapter sends — the publishing-limit read first, containers, video polling, publish,
 * permalink — plus the refusal of a profile that used its 250 posts before anything is created.
 */
const fake = new ThreadsFake();
let provider: ReturnType<typeof createThreadsProvider>;
let adapter: ReturnType<typeof createThreadsAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const jpg = (n: number, alt?: string) => ({ url: `https://cdn.example.com/p${n}.jpg`, kind: 'image' as const, ...(alt ? { alt } : {}) });
const mp4 = { url: 'https://cdn.example.com/clip.mp4', kind: 'video' as const };
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Fresh sourdough at 7', media: [], thread: [], send_key: 'post-1:threads', ...over });
const form = (r: RecordedRequest) => Object.fromEntries(new URLSearchParams(r.text));
const calls = () => fake.calls.filter((c) => !c.startsWith('GET /oauth'));
const user = () => fake.userId;

beforeAll(async () => {
  await fake.start();
  provider = createThreadsProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createThreadsAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  app = oauthApp(fake, 'threads');
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  creds = { access_token: fake.token, threads_user_id: fake.userId, username: fake.username };
});

async function signIn(): Promise<TokenSet> {
  const res = await fetch(await provider.authorizeUrl({ app, state: 'st-1' }), { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  expect(back.searchParams.get('state')).toBe('st-1');
  const tokens = await provider.exchangeCode({ app, code: back.searchParams.get('code') ?? '' }, testContext({}).ctx);
  if ('ok' in tokens) throw new Error(`sign-in failed: ${JSON.stringify(tokens)}`);
  return tokens;
}

describe('threads sign-in', () => {
  it('authorizes with the Threads scopes, exchanges the code for a 60-day token and lists the one profile', async () => {
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-1' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: app.redirectUri, scope: 'threads_basic,threads_content_publish,threads_manage_replies,threads_manage_insights', response_type: 'code', state: 'st-1',
    });
    const { ctx } = testContext({});
    const before = ctx.now();
    const tokens = await signIn();
    const [short] = fake.find('POST', '/oauth/access_token');
    expect(form(short)).toEqual({ client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: app.redirectUri, code: expect.stringMatching(/^th-code-/) });
    const [long] = fake.find('GET', '/access_token');
    expect(Object.fromEntries(long.url.searchParams)).toEqual({ grant_type: 'th_exchange_token', client_secret: app.clientSecret, access_token: expect.stringMatching(/^th-at-/) });
    expect(tokens.access_token).not.toBe(Object.fromEntries(long.url.searchParams).access_token);
    // the long-lived token renews itself: it is kept as its own refresh token, so the service's renewal applies
    expect(tokens.refresh_token).toBe(tokens.access_token);
    expect(tokens.expires_at! - before).toBeGreaterThan(59 * 86_400_000);
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([
      { id: fake.userId, handle: `@${fake.username}`, credentials: { threads_user_id: fake.userId, username: fake.username } },
    ]);
  });

  it('renews with th_refresh_token; a token Threads no longer knows is a lost sign-in', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    if ('ok' in renewed) throw new Error(renewed.error);
    const [call] = fake.find('GET', '/refresh_access_token');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ grant_type: 'th_refresh_token', access_token: tokens.access_token });
    expect(renewed.access_token).not.toBe(tokens.access_token);
    expect(renewed.refresh_token).toBe(renewed.access_token);
    fake.revoke();
    expect(await provider.refresh!(renewed, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('a wrong app secret is named as configuration, not as a lost sign-in', async () => {
    const res = await fetch(await provider.authorizeUrl({ app, state: 's' }), { redirect: 'manual' });
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const out = await provider.exchangeCode({ app: { ...app, clientSecret: 'wrong' }, code }, testContext({}).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('THREADS_CLIENT_SECRET') });
  });
});

describe('threads posts', () => {
  it('text: publishing limit, a TEXT container, threads_publish, the permalink', async () => {
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: expect.stringMatching(/^\d+$/), url: expect.stringMatching(/^https:\/\/www\.threads\.net\/@acme\.bakery\/post\//) });
    expect(calls()).toEqual([
      `GET /${user()}/threads_publishing_limit`, `POST /${user()}/threads`, `POST /${user()}/threads_publish`, `GET /${out.ok ? out.id : ''}`,
    ]);
    const [limit] = fake.find('GET', `/${user()}/threads_publishing_limit`);
    expect(limit.path).toBe(`/v1.0/${user()}/threads_publishing_limit`);
    expect(Object.fromEntries(limit.url.searchParams)).toEqual({ fields: 'quota_usage,config', access_token: fake.token });
    const [container, publish] = [fake.find('POST', `/${user()}/threads`)[0], fake.find('POST', `/${user()}/threads_publish`)[0]];
    expect(form(container)).toEqual({ media_type: 'TEXT', text: 'Fresh sourdough at 7', access_token: fake.token });
    expect(form(publish)).toEqual({ creation_id: expect.stringMatching(/^\d+$/), access_token: fake.token });
    expect(fake.quotaUsage).toBe(1);
  });

  it('photo with alt text: an IMAGE container published at once (no polling for images)', async () => {
    const out = await adapter.publish(content({ media: [jpg(1, 'A loaf on a board')] }), testContext(creds).ctx);
    if (!out.ok) throw new Error(out.error);
    expect(form(fake.find('POST', `/${user()}/threads`)[0])).toEqual({
      media_type: 'IMAGE', image_url: 'https://cdn.example.com/p1.jpg', text: 'Fresh sourdough at 7', alt_text: 'A loaf on a board', access_token: fake.token,
    });
    // no status poll for an image: straight from the container to threads_publish
    expect(calls()).toEqual([`GET /${user()}/threads_publishing_limit`, `POST /${user()}/threads`, `POST /${user()}/threads_publish`, `GET /${out.id}`]);
  });

  it('video: the container is polled until FINISHED, then published', async () => {
    fake.containerPolls = 2;
    const { ctx, clock } = testContext(creds);
    const out = await adapter.publish(content({ media: [mp4] }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const container = fake.find('POST', `/${user()}/threads`)[0];
    expect(form(container)).toEqual({ media_type: 'VIDEO', video_url: mp4.url, text: 'Fresh sourdough at 7', access_token: fake.token });
    const id = [...fake.containers.keys()][0];
    const polls = fake.find('GET', `/${id}`);
    expect(polls).toHaveLength(3);
    expect(Object.fromEntries(polls[0].url.searchParams)).toEqual({ fields: 'status,error_message', access_token: fake.token });
    expect(clock.sleeps).toEqual([50, 50]);
    expect(calls().indexOf(`POST /${user()}/threads_publish`)).toBeGreaterThan(calls().lastIndexOf(`GET /${id}`));
  });

  it('video still processing near the deadline: processing with resume state; resume publishes it', async () => {
    fake.containerPolls = 100;
    const patient = createThreadsAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 1850, resumeAfterSeconds: 30 });
    const out = await patient.publish(content({ media: [mp4] }), testContext(creds).ctx);
    const id = [...fake.containers.keys()][0];
    expect(out).toEqual({ ok: true, status: 'processing', id, url: 'https://www.threads.net/@acme.bakery', resume: { after_seconds: 30, state: { step: 'container', container_id: id } } });
    expect(fake.find('POST', `/${user()}/threads_publish`)).toHaveLength(0);
    fake.containers.get(id)!.polls = 0;
    const done = await patient.resume!(content({ media: [mp4] }), { step: 'container', container_id: id }, testContext(creds).ctx);
    expect(done).toMatchObject({ ok: true, status: 'published' });
    expect(form(fake.find('POST', `/${user()}/threads_publish`)[0]).creation_id).toBe(id);
  });

  it('carousel of an image and a video: item containers, the video polled, then the CAROUSEL container with the children', async () => {
    fake.containerPolls = 1;
    const out = await adapter.publish(content({ media: [jpg(1, 'Crumb'), mp4] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const created = fake.find('POST', `/${user()}/threads`).map(form);
    const [a, b] = [...fake.containers.keys()];
    expect(created).toEqual([
      { is_carousel_item: 'true', media_type: 'IMAGE', image_url: 'https://cdn.example.com/p1.jpg', alt_text: 'Crumb', access_token: fake.token },
      { is_carousel_item: 'true', media_type: 'VIDEO', video_url: mp4.url, access_token: fake.token },
      { media_type: 'CAROUSEL', children: `${a},${b}`, text: 'Fresh sourdough at 7', access_token: fake.token },
    ]);
    expect(fake.find('GET', `/${a}`)).toHaveLength(0);
    expect(fake.find('GET', `/${b}`)).toHaveLength(2);
    expect(fake.quotaUsage).toBe(1);
  });

  it('reply_to and first_comment: the post replies to the named post; the comment replies to the new post', async () => {
    const out = await adapter.publish(content({ options: { reply_to: '17900000000000042' }, first_comment: 'Menu in the next post' }), testContext(creds).ctx);
    if (!out.ok) throw new Error(out.error);
    const created = fake.find('POST', `/${user()}/threads`).map(form);
    expect(created).toEqual([
      { media_type: 'TEXT', text: 'Fresh sourdough at 7', reply_to_id: '17900000000000042', access_token: fake.token },
      { media_type: 'TEXT', text: 'Menu in the next post', reply_to_id: out.id, access_token: fake.token },
    ]);
    expect(out.comment_id).toMatch(/^\d+$/);
    expect(fake.find('POST', `/${user()}/threads_publish`)).toHaveLength(2);
  });
});

describe('threads topic tag', () => {
  it('topic_tag rides on the post\'s own container (TEXT, IMAGE, VIDEO, the CAROUSEL parent), never on carousel items or the first comment', async () => {
    const tag = { options: { topic_tag: 'Sourdough Baking' } };
    for (const media of [[], [jpg(1)], [mp4]]) {
      fake.reset();
      const out = await adapter.publish(content({ ...tag, media }), testContext(creds).ctx);
      if (!out.ok) throw new Error(out.error);
      expect(form(fake.find('POST', `/${user()}/threads`)[0]).topic_tag).toBe('Sourdough Baking');
      expect(fake.published.get(out.id)?.topic_tag).toBe('Sourdough Baking');
    }
    fake.reset();
    const out = await adapter.publish(content({ ...tag, media: [jpg(1), jpg(2)], first_comment: 'Recipe below' }), testContext(creds).ctx);
    if (!out.ok) throw new Error(out.error);
    const [a, b] = [...fake.containers.keys()];
    expect(fake.find('POST', `/${user()}/threads`).map(form)).toEqual([
      { is_carousel_item: 'true', media_type: 'IMAGE', image_url: 'https://cdn.example.com/p1.jpg', access_token: fake.token },
      { is_carousel_item: 'true', media_type: 'IMAGE', image_url: 'https://cdn.example.com/p2.jpg', access_token: fake.token },
      { media_type: 'CAROUSEL', children: `${a},${b}`, text: 'Fresh sourdough at 7', topic_tag: 'Sourdough Baking', access_token: fake.token },
      { media_type: 'TEXT', text: 'Recipe below', reply_to_id: out.id, access_token: fake.token },
    ]);
  });

  it('the simulator refuses a tag Threads would refuse (over 50 characters, a period or an ampersand) as a bad parameter', async () => {
    for (const topic_tag of ['x'.repeat(51), 'Node.js', 'Salt & Pepper']) {
      fake.reset();
      const out = await adapter.publish(content({ options: { topic_tag } }), testContext(creds).ctx);
      expect(out).toMatchObject({ ok: false, kind: 'rejected' });
      expect(fake.find('POST', `/${user()}/threads_publish`)).toHaveLength(0);
    }
  });
});

describe('threads connection check', () => {
  it('verify reads the profile; a token Threads refuses is reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: '@acme.bakery', credentials: creds });
    expect(Object.fromEntries(fake.find('GET', `/${user()}`)[0].url.searchParams)).toEqual({ fields: 'id,username', access_token: fake.token });
    expect(await adapter.verify(testContext({ ...creds, access_token: 'gone' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });
});

describe('threads failures', () => {
  it('a profile at its publishing limit is refused before anything is created: rate_limited, nothing sent', async () => {
    fake.quotaUsage = 250;
    const out = await adapter.publish(content({ media: [jpg(1)] }), testContext(creds).ctx);
    expect(out).toEqual({ ok: false, kind: 'rate_limited', retry_after: 3600, error: expect.stringContaining('250 of its 250 API posts in the last 24 hours') });
    expect(calls()).toEqual([`GET /${user()}/threads_publishing_limit`]);
  });

  it('the limit read does not answer before the deadline: transient (nothing exists on Threads yet), no container', async () => {
    fake.failNext(`GET /${user()}/threads_publishing_limit`, { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'transient', error: expect.stringContaining('nothing was posted') });
    expect(fake.find('POST', `/${user()}/threads`)).toHaveLength(0);
  });

  it('one post left: it is sent', async () => {
    fake.quotaUsage = 249;
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: true });
  });

  it('a video Threads could not download: media_unreachable; an invalid duration: bad_media', async () => {
    fake.failNextVideo = 'FAILED_DOWNLOADING_VIDEO';
    expect(await adapter.publish(content({ media: [mp4] }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
    fake.failNextVideo = 'INVALID_DURATION';
    expect(await adapter.publish(content({ media: [mp4] }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('INVALID_DURATION') });
  });

  it('an expired token: reauth (at the limit read, before anything is created)', async () => {
    const out = await adapter.publish(content(), testContext({ ...creds, access_token: 'th-at-gone' }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(calls()).toEqual([`GET /${user()}/threads_publishing_limit`]);
  });

  it('a Graph throttle at container creation: rate_limited', async () => {
    fake.failNext(`POST /${user()}/threads`, ThreadsFake.error('Application request limit reached', 4, undefined, 400));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited' });
  });
});

describe('the simulator against Threads\' documented examples', () => {
  it('answers the publishing limit in the documented shape (overview: {data: [{quota_usage, config: {quota_total, quota_duration}}]})', async () => {
    fake.quotaUsage = 4;
    const res = await fetch(`${fake.url}/v1.0/${fake.userId}/threads_publishing_limit?fields=quota_usage,config&access_token=${fake.token}`);
    expect(await res.json()).toEqual({ data: [{ quota_usage: 4, config: { quota_total: 250, quota_duration: 86400 } }] });
  });

  it('a container status answers {status, id} as in the troubleshooting example', async () => {
    const made = await fetch(`${fake.url}/v1.0/${fake.userId}/threads`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ media_type: 'TEXT', text: 'hi', access_token: fake.token }).toString() });
    const { id } = await made.json() as { id: string };
    const res = await fetch(`${fake.url}/v1.0/${id}?fields=status,error_message&access_token=${fake.token}`);
    expect(await res.json()).toEqual({ id, status: 'FINISHED' });
  });
});

describe('threads content checks (before sending)', () => {
  it('500 characters, emojis weighing their UTF-8 bytes', () => {
    expect(checkThreads(content({ text: 'a'.repeat(500) }))).toBeUndefined();
    expect(checkThreads(content({ text: 'a'.repeat(501) }))).toMatchObject({ code: 'text_too_long' });
    // 496 letters + one 4-byte emoji = 500; one more letter is over
    expect(checkThreads(content({ text: `${'a'.repeat(496)}🍞` }))).toBeUndefined();
    expect(checkThreads(content({ text: `${'a'.repeat(497)}🍞` }))).toMatchObject({ code: 'text_too_long' });
  });

  it('carousels of up to 20 items; at most 5 links; a text post needs text; alt text ≤ 1000', () => {
    expect(checkThreads(content({ media: Array.from({ length: 20 }, (_, i) => jpg(i)) }))).toBeUndefined();
    expect(checkThreads(content({ media: Array.from({ length: 21 }, (_, i) => jpg(i)) }))).toMatchObject({ code: 'bad_media' });
    expect(checkThreads(content({ text: Array.from({ length: 6 }, (_, i) => `https://e.com/${i}`).join(' ') }))).toMatchObject({ code: 'rejected' });
    expect(checkThreads(content({ text: ' ' }))).toMatchObject({ code: 'rejected' });
    expect(checkThreads(content({ media: [jpg(1, 'x'.repeat(1001))] }))).toMatchObject({ code: 'bad_media' });
  });
});
