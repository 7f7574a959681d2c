import { createTikTokAdapter } from '../../shared/networks/tiktok';
import type { PublishContent } from '../../shared/ports/networks';
import { FakeServer } from '../../shared/networks/sandbox-kit/fake-server';
import { TikTokUploadFake } from '../../shared/networks/tiktok/simulator';
import { buildMp4 } from '../support/mp4';
import { ctxWithSleeps } from './context';

/** TikTok post kinds: FILE_UPLOAD for links on unverified domains, privacy levels surfaced clearly. */

const fake = new TikTokUploadFake();
const files = new Map<string, Buffer>();
const media = new FakeServer((req) => (files.has(req.path) ? { status: 200, headers: { 'content-type': 'video/mp4' }, body: files.get(req.path)! } : { status: 404, body: 'no' }));
let adapter: ReturnType<typeof createTikTokAdapter>;
let creds: Record<string, string>;
const content = (url: string, over: Partial<PublishContent> = {}): PublishContent => ({ text: 'new drop', media: [{ url, kind: 'video' }], thread: [], send_key: 'k:tiktok', ...over });
const inits = () => fake.find('POST', '/v2/post/publish/video/init/').map((r) => r.json as { post_info: Record<string, unknown>; source_info: Record<string, unknown> });

beforeAll(async () => {
  await Promise.all([fake.start(), media.start()]);
  adapter = createTikTokAdapter({ apiBase: fake.url, authBase: fake.url, pollIntervalMs: 50, reserveMs: 20, minChunkBytes: 4096, chunkBytes: 4096 });
  creds = { access_token: fake.token, open_id: fake.openId, username: fake.username };
});
afterAll(async () => { await Promise.all([fake.stop(), media.stop()]); });
beforeEach(() => { fake.reset(); fake.minChunkBytes = 4096; files.clear(); media.requests.length = 0; });

describe('FILE_UPLOAD', () => {
  it('a link on an unverified domain → FILE_UPLOAD init, chunks PUT in order with Content-Range, then the status follow-up', async () => {
    const mp4 = buildMp4({ seconds: 15, width: 1080, height: 1920, payloadBytes: 10_000 });
    files.set('/clip.mp4', mp4);
    const out = await adapter.publish(content(`${media.url}/clip.mp4`), ctxWithSleeps(creds, 5000).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published', url: expect.stringMatching(/^https:\/\/www\.tiktok\.com\/@acme\.studio\/video\/\d+$/) });
    const [pull, upload] = inits();
    expect(pull.source_info).toEqual({ source: 'PULL_FROM_URL', video_url: `${media.url}/clip.mp4` });
    const count = Math.floor(mp4.length / 4096);
    expect(upload).toEqual({ post_info: pull.post_info, source_info: { source: 'FILE_UPLOAD', video_size: mp4.length, chunk_size: 4096, total_chunk_count: count } });
    const [up] = [...fake.uploads.values()];
    expect(up.ranges).toEqual(Array.from({ length: count }, (_, i) => `bytes ${i * 4096}-${i === count - 1 ? mp4.length - 1 : i * 4096 + 4095}/${mp4.length}`));
    expect(Buffer.concat(up.received).equals(mp4)).toBe(true);
    const puts = fake.requests.filter((r) => r.method === 'PUT');
    expect(puts.every((r) => r.headers['content-type'] === 'video/mp4')).toBe(true);
    expect(fake.find('POST', '/v2/post/publish/status/fetch/')).toHaveLength(1);
  });

  it('a file under the chunk minimum goes whole as one chunk', async () => {
    const mp4 = buildMp4({ seconds: 5, width: 720, height: 1280, payloadBytes: 100 });
    files.set('/small.mp4', mp4);
    await adapter.publish(content(`${media.url}/small.mp4`), ctxWithSleeps(creds, 5000).ctx);
    expect(inits()[1].source_info).toEqual({ source: 'FILE_UPLOAD', video_size: mp4.length, chunk_size: mp4.length, total_chunk_count: 1 });
    expect([...fake.uploads.values()][0].ranges).toEqual([`bytes 0-${mp4.length - 1}/${mp4.length}`]);
  });

  it('a link on a verified domain stays PULL_FROM_URL (nothing downloaded)', async () => {
    fake.verifiedPrefix = `${media.url}/`;
    await adapter.publish(content(`${media.url}/clip.mp4`), ctxWithSleeps(creds, 5000).ctx);
    expect(inits().map((b) => b.source_info.source)).toEqual(['PULL_FROM_URL']);
    expect(media.requests).toHaveLength(0);
  });

  it('a video over 10 minutes (read from its header) → bad_media before the FILE_UPLOAD init', async () => {
    files.set('/long.mp4', buildMp4({ seconds: 601, width: 1080, height: 1920 }));
    const out = await adapter.publish(content(`${media.url}/long.mp4`), ctxWithSleeps(creds, 5000).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'tiktok takes videos of 3–600 s; media 1 lasts 601.0 s' });
    expect(inits()).toHaveLength(1);
  });
});

describe('privacy levels', () => {
  it('privacy_level offered to the creator is sent as asked', async () => {
    fake.verifiedPrefix = `${media.url}/`;
    await adapter.publish(content(`${media.url}/clip.mp4`, { privacy: 'public', options: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS' } }), ctxWithSleeps(creds, 5000).ctx);
    expect(inits()[0].post_info.privacy_level).toBe('MUTUAL_FOLLOW_FRIENDS');
  });

  it('an unaudited app (SELF_ONLY only) asked for PUBLIC_TO_EVERYONE → rejected with the audit rule as what/fix; nothing initialised', async () => {
    fake.privacyOptions = ['SELF_ONLY'];
    const out = await adapter.publish(content(`${media.url}/clip.mp4`, { options: { privacy_level: 'PUBLIC_TO_EVERYONE' } }), ctxWithSleeps(creds, 5000).ctx);
    expect(out).toMatchObject({
      ok: false, kind: 'rejected', code: 'rejected', error: 'tiktok offers this account the privacy levels SELF_ONLY; PUBLIC_TO_EVERYONE is not one of them',
      what: expect.stringContaining('has not passed TikTok\'s audit'), fix: expect.stringContaining('SELF_ONLY'),
    });
    expect(inits()).toHaveLength(0);
  });

  it('TikTok answering unaudited_client_can_only_post_to_private_accounts → rejected with the same what/fix', async () => {
    fake.failNext('POST /v2/post/publish/video/init/', TikTokUploadFake.error(403, 'unaudited_client_can_only_post_to_private_accounts', 'Please review our integration guidelines'));
    const out = await adapter.publish(content(`${media.url}/clip.mp4`), ctxWithSleeps(creds, 5000).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', what: expect.stringContaining('private (SELF_ONLY) posts only'), fix: expect.stringContaining('privacy "private"') });
  });
});
