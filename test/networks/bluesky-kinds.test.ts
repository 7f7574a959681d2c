import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { BlueskyVideoFake } from '../../shared/networks/bluesky/video-simulator';
import { buildMp4 } from '../support/mp4';
import { ctxWithSleeps, testContext } from './context';
import { atprotoCid } from '../../shared/networks/sandbox-kit/atproto-cid';
import { atprotoViolations } from '../contracts/atproto';
import { watchContract } from '../contracts/watch';

/** Bluesky post kinds: video (upload service + job), alt text, quote posts, replies, link cards. */

const pds = new BlueskyFake();
const videos = new BlueskyVideoFake();
// every record the adapter writes is checked against the atproto lexicons
const contract = watchContract(pds.server, atprotoViolations);
const creds = { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' };
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'hello', media: [], thread: [], send_key: 'k1', ...over });
const adapterWith = (opts: { pollIntervalMs?: number; reserveMs?: number } = {}): NetworkAdapter =>
  createBlueskyAdapter({ apiBase: pds.url, videoBase: videos.url, pollIntervalMs: 100, reserveMs: 100, ...opts });
const record = (i = 0) => (pds.calls('com.atproto.repo.createRecord')[i].json as { record: Record<string, unknown> }).record;
const blob = (n: number, type: string, size: number) => ({ $type: 'blob', ref: { $link: BlueskyFake.blobCid(n) }, mimeType: type, size });

const targetCid = atprotoCid('dag-cbor', 'target');
const rootRef = { uri: 'at://did:plc:carol/app.bsky.feed.post/root1', cid: atprotoCid('dag-cbor', 'root') };
const target = {
  uri: 'at://did:plc:bob/app.bsky.feed.post/3l6ove', cid: targetCid,
  record: { $type: 'app.bsky.feed.post', text: 'a reply', reply: { root: rootRef, parent: rootRef } },
};

beforeAll(async () => { await pds.start(); await videos.start(); });
afterAll(async () => { await pds.stop(); await videos.stop(); });
afterEach(() => expect(contract.take()).toEqual([]));
beforeEach(() => {
  pds.reset();
  videos.reset();
  pds.posts.set(target.uri, target);
});

describe('video', () => {
  const mp4 = buildMp4({ seconds: 12, width: 1080, height: 1920, payloadBytes: 2048 });

  it('uploads to the video service, polls the job, then posts app.bsky.embed.video with alt and aspect ratio', async () => {
    pds.media.set('clip.mp4', { type: 'video/mp4', bytes: mp4 });
    const { ctx, sleeps, clock } = ctxWithSleeps(creds, 5000);
    const startedAt = clock.now();
    const out = await adapterWith().publish(content({ text: 'watch', media: [{ url: pds.mediaUrl('clip.mp4'), kind: 'video', alt: 'A cat jumps onto a shelf' }] }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: 'at://did:plc:alice/app.bsky.feed.post/rkey1', url: 'https://bsky.app/profile/alice.test/post/rkey1' });

    expect(pds.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /media/clip.mp4',
      'POST /xrpc/com.atproto.server.createSession',
      'GET /xrpc/com.atproto.server.getServiceAuth',
      'POST /xrpc/com.atproto.repo.createRecord',
    ]);
    const [auth] = pds.calls('com.atproto.server.getServiceAuth');
    expect(auth.headers.authorization).toBe('Bearer access-jwt-1');
    expect(auth.url.searchParams.get('aud')).toBe(`did:web:${new URL(pds.url).host}`);
    expect(auth.url.searchParams.get('lxm')).toBe('com.atproto.repo.uploadBlob');
    const exp = Number(auth.url.searchParams.get('exp'));
    expect(exp).toBe(Math.floor(startedAt / 1000) + 1800); // 30 minutes from the context's clock

    expect(videos.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /xrpc/app.bsky.video.uploadVideo',
      'GET /xrpc/app.bsky.video.getJobStatus',
      'GET /xrpc/app.bsky.video.getJobStatus',
    ]);
    const [upload] = videos.calls('app.bsky.video.uploadVideo');
    expect(upload.headers.authorization).toBe('Bearer service-token-1');
    expect(upload.headers['content-type']).toBe('video/mp4');
    expect(Object.fromEntries(upload.url.searchParams)).toEqual({ did: 'did:plc:alice', name: 'clip.mp4' });
    expect(upload.body.equals(mp4)).toBe(true);
    expect(videos.calls('app.bsky.video.getJobStatus').map((r) => r.url.searchParams.get('jobId'))).toEqual(['job1', 'job1']);
    expect(sleeps).toEqual([100]);

    expect(record().embed).toEqual({
      $type: 'app.bsky.embed.video', video: BlueskyVideoFake.blob('job1', mp4.length),
      alt: 'A cat jumps onto a shelf', aspectRatio: { width: 1080, height: 1920 },
    });
    expect(pds.calls('com.atproto.repo.uploadBlob')).toHaveLength(0);
  });

  it('a job still running when the call must end → processing with resume state; resume posts once the blob is ready', async () => {
    pds.media.set('clip.mp4', { type: 'video/mp4', bytes: mp4 });
    videos.states = ['JOB_STATE_ENCODING', 'JOB_STATE_ENCODING'];
    const adapter = adapterWith({ pollIntervalMs: 60_000 });
    const item = { url: pds.mediaUrl('clip.mp4'), kind: 'video' as const };
    const { ctx, sleeps } = ctxWithSleeps(creds, 5000);
    const first = await adapter.publish(content({ text: 'later', media: [item] }), ctx);
    expect(first).toEqual({
      ok: true, status: 'processing', id: 'bluesky-video-job:job1', url: 'https://bsky.app/profile/alice.test',
      resume: { after_seconds: 10, state: { step: 'video', job_id: 'job1', width: '1080', height: '1920' } },
    });
    expect(sleeps).toEqual([]);
    expect(pds.calls('com.atproto.repo.createRecord')).toHaveLength(0);

    // still encoding on the first resume, completed on the second
    const again = await adapter.resume!(content({ text: 'later', media: [item] }), { step: 'video', job_id: 'job1', width: '1080', height: '1920' }, ctxWithSleeps(creds, 5000).ctx);
    expect(again).toMatchObject({ ok: true, status: 'processing', resume: { state: { job_id: 'job1' } } });
    const done = await adapter.resume!(content({ text: 'later', media: [item] }), { step: 'video', job_id: 'job1', width: '1080', height: '1920' }, ctxWithSleeps(creds, 5000).ctx);
    expect(done).toEqual({ ok: true, status: 'published', id: 'at://did:plc:alice/app.bsky.feed.post/rkey1', url: 'https://bsky.app/profile/alice.test/post/rkey1' });
    expect(videos.calls('app.bsky.video.uploadVideo')).toHaveLength(1);
    expect(record().embed).toEqual({ $type: 'app.bsky.embed.video', video: BlueskyVideoFake.blob('job1', mp4.length), aspectRatio: { width: 1080, height: 1920 } });
  });

  it('a failed job → bad_media with what and fix; nothing is posted', async () => {
    pds.media.set('clip.mp4', { type: 'video/mp4', bytes: mp4 });
    videos.states = ['JOB_STATE_FAILED'];
    const out = await adapterWith().publish(content({ media: [{ url: pds.mediaUrl('clip.mp4'), kind: 'video' }] }), ctxWithSleeps(creds, 5000).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'bluesky could not process the video: Video is longer than 3 minutes' });
    expect(out.ok === false && out.kind === 'rejected' && out.fix).toMatch(/MP4/);
    expect(pds.calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });

  it('a video over 3 minutes (read from its mp4 header) → bad_media before signing in or uploading', async () => {
    pds.media.set('long.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 181, width: 1280, height: 720 }) });
    const out = await adapterWith().publish(content({ media: [{ url: pds.mediaUrl('long.mp4'), kind: 'video' }] }), ctxWithSleeps(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'bluesky takes videos of up to 180 s; media 1 lasts 181.0 s' });
    expect(out.ok === false && out.kind === 'rejected' && out.fix).toMatch(/Trim media 1/);
    expect(pds.requests.map((r) => r.path)).toEqual(['/media/long.mp4']);
    expect(videos.requests).toHaveLength(0);
  });

  it('the video service refusing its service token → transient (not the member\'s sign-in); nothing posted', async () => {
    pds.media.set('clip.mp4', { type: 'video/mp4', bytes: mp4 });
    pds.serviceToken = 'stale';
    const out = await adapterWith().publish(content({ media: [{ url: pds.mediaUrl('clip.mp4'), kind: 'video' }] }), ctxWithSleeps(creds, 5000).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'transient', error: expect.stringContaining('refused the upload authorisation') });
    expect(pds.calls('com.atproto.server.createSession')).toHaveLength(1);
    expect(pds.calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });
});

describe('alt text', () => {
  it('each image carries its alt text', async () => {
    pds.media.set('a.png', { type: 'image/png', bytes: Buffer.alloc(100, 1) });
    pds.media.set('b.png', { type: 'image/png', bytes: Buffer.alloc(200, 2) });
    await adapterWith().publish(content({ media: [
      { url: pds.mediaUrl('a.png'), kind: 'image', alt: 'First chart' },
      { url: pds.mediaUrl('b.png'), kind: 'image' },
    ] }), testContext(creds).ctx);
    expect(record().embed).toEqual({ $type: 'app.bsky.embed.images', images: [
      { image: blob(1, 'image/png', 100), alt: 'First chart' },
      { image: blob(2, 'image/png', 200), alt: '' },
    ] });
  });

  it('alt text over 2000 graphemes → bad_media naming the item, with what/fix; nothing is sent', () => {
    const out = adapterWith().check(content({ media: [{ url: 'https://x/a.png', kind: 'image' }, { url: 'https://x/b.png', kind: 'image', alt: '👍🏽'.repeat(2001) }] }), creds);
    expect(out).toEqual({
      ok: false, kind: 'rejected', code: 'bad_media', error: 'bluesky takes alt text (alt) up to 2000 characters; media 2 has 2001',
      what: expect.stringContaining('media 2'), fix: expect.stringContaining('media[1].alt'),
    });
    expect(adapterWith().check(content({ media: [{ url: 'https://x/b.png', kind: 'image', alt: '👍🏽'.repeat(2000) }] }), creds)).toBeUndefined();
  });
});

describe('quote posts and replies', () => {
  it('quote by bsky.app link → app.bsky.embed.record with the post\'s uri and cid (handle resolved to a DID)', async () => {
    const out = await adapterWith().publish(content({ text: 'this', options: { quote: 'https://bsky.app/profile/bob.test/post/3l6ove' } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const [lookup] = pds.calls('app.bsky.feed.getPosts');
    expect(lookup.headers.authorization).toBe('Bearer access-jwt-1');
    expect(lookup.url.searchParams.get('uris')).toBe(target.uri);
    expect(record().embed).toEqual({ $type: 'app.bsky.embed.record', record: { uri: target.uri, cid: targetCid } });
  });

  it('quote with an image → app.bsky.embed.recordWithMedia', async () => {
    pds.media.set('a.png', { type: 'image/png', bytes: Buffer.alloc(50, 1) });
    await adapterWith().publish(content({ media: [{ url: pds.mediaUrl('a.png'), kind: 'image', alt: 'x' }], options: { quote: target.uri } }), testContext(creds).ctx);
    expect(record().embed).toEqual({
      $type: 'app.bsky.embed.recordWithMedia', record: { record: { uri: target.uri, cid: targetCid } },
      media: { $type: 'app.bsky.embed.images', images: [{ image: blob(1, 'image/png', 50), alt: 'x' }] },
    });
  });

  it('reply_to → reply {root: the thread root, parent: the post}; thread entries continue under the same root', async () => {
    const out = await adapterWith().publish(content({ text: 'agreed', thread: ['and more'], options: { reply_to: target.uri } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, thread_ids: ['at://did:plc:alice/app.bsky.feed.post/rkey2'] });
    const root = rootRef;
    expect(record(0).reply).toEqual({ root, parent: { uri: target.uri, cid: targetCid } });
    expect(record(1).reply).toEqual({ root, parent: { uri: 'at://did:plc:alice/app.bsky.feed.post/rkey1', cid: BlueskyFake.recordCid(1) } });
  });

  it('a post that cannot be found → rejected naming it; nothing is posted', async () => {
    const out = await adapterWith().publish(content({ options: { reply_to: 'at://did:plc:bob/app.bsky.feed.post/gone' } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('was not found') });
    expect(pds.calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });
});

describe('link cards', () => {
  const page = (image: string) => Buffer.from(`<!doctype html><html><head><title>Fallback</title>
    <meta property="og:title" content="Launch day &amp; more">
    <meta content="Everything we shipped" property="og:description">
    <meta property="og:image" content="${image}"></head><body>hi</body></html>`);

  it('link_card: true → app.bsky.embed.external from the first link\'s og: tags, with the image uploaded as thumb', async () => {
    pds.media.set('page', { type: 'text/html; charset=utf-8', bytes: page('/media/og.png') });
    pds.media.set('og.png', { type: 'image/png', bytes: Buffer.alloc(300, 3) });
    const link = pds.mediaUrl('page');
    await adapterWith().publish(content({ text: `read ${link} now`, options: { link_card: true } }), testContext(creds).ctx);
    expect(pds.calls('com.atproto.repo.uploadBlob').map((r) => [r.headers['content-type'], r.body.length])).toEqual([['image/png', 300]]);
    expect(record().embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: link, title: 'Launch day & more', description: 'Everything we shipped', thumb: blob(1, 'image/png', 300) },
    });
  });

  it('a page that cannot be read still gives a card titled with its host, without a thumb', async () => {
    const link = pds.mediaUrl('missing');
    await adapterWith().publish(content({ text: 'see', options: { link_card: link } }), testContext(creds).ctx);
    expect(record().embed).toEqual({ $type: 'app.bsky.embed.external', external: { uri: link, title: new URL(pds.url).host, description: '' } });
  });

  it('link_card: true with no link in the text → rejected, nothing posted', async () => {
    const out = await adapterWith().publish(content({ text: 'no links here', options: { link_card: true } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('has none') });
    expect(pds.calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });
});
