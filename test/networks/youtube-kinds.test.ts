import { createYouTubeAdapter } from '../../shared/networks/youtube';
import type { PublishContent } from '../../shared/ports/networks';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { buildMp4 } from '../support/mp4';
import { testContext } from './context';

/** YouTube post kinds: Shorts links (from the file's frame size and duration), custom thumbnails, playlists. */

const fake = new YouTubeFake();
let adapter: ReturnType<typeof createYouTubeAdapter>;
let creds: Record<string, string>;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 5)]);
const content = (over: Partial<PublishContent> = {}): PublishContent => ({
  text: 'Launch video', title: 'Launch', media: [{ url: fake.mediaUrl('clip.mp4'), kind: 'video' }], thread: [], send_key: 'k:youtube', ...over,
});

beforeAll(async () => {
  await fake.start();
  adapter = createYouTubeAdapter({ apiBase: fake.url, uploadBase: fake.url, chunkSize: 256 * 1024, reserveMs: 100 });
  creds = { access_token: fake.token, channel_id: 'UCacme000000000000000001', channel_title: 'Acme Channel' };
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('Shorts', () => {
  it('a vertical video of up to 3 minutes → the /shorts/ link', async () => {
    fake.media.set('clip.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 45, width: 1080, height: 1920 }) });
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: expect.any(String), url: `https://www.youtube.com/shorts/${(out as { id: string }).id}` });
  });

  it('a landscape video, or a vertical one over 3 minutes → the watch link', async () => {
    fake.media.set('clip.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 45, width: 1920, height: 1080 }) });
    const wide = await adapter.publish(content(), testContext(creds).ctx);
    expect(wide).toMatchObject({ ok: true, url: expect.stringMatching(/^https:\/\/www\.youtube\.com\/watch\?v=/) });
    fake.media.set('clip.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 181, width: 1080, height: 1920 }) });
    const long = await adapter.publish(content({ text: 'long one' }), testContext(creds).ctx);
    expect(long).toMatchObject({ ok: true, url: expect.stringMatching(/^https:\/\/www\.youtube\.com\/watch\?v=/) });
  });
});

describe('thumbnails and playlists', () => {
  beforeEach(() => fake.media.set('clip.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 30, width: 1920, height: 1080 }) }));

  it('thumbnail_url → thumbnails.set with the image bytes after the upload; playlist_id → playlistItems.insert', async () => {
    fake.media.set('thumb.png', { type: 'image/png', bytes: PNG });
    fake.playlists.set('PLacme00000000000001', []);
    const out = await adapter.publish(content({ options: { thumbnail_url: fake.mediaUrl('thumb.png'), playlist_id: 'PLacme00000000000001' } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const id = (out as { id: string }).id;
    const [thumb] = fake.find('POST', '/upload/youtube/v3/thumbnails/set');
    expect(thumb.url.searchParams.get('videoId')).toBe(id);
    expect(thumb.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(thumb.body.equals(PNG)).toBe(true);
    const [item] = fake.find('POST', '/youtube/v3/playlistItems');
    expect(item.url.searchParams.get('part')).toBe('snippet');
    expect(item.json).toEqual({ snippet: { playlistId: 'PLacme00000000000001', resourceId: { kind: 'youtube#video', videoId: id } } });
    expect(fake.thumbnails.get(id)?.bytes.equals(PNG)).toBe(true);
    expect(fake.playlists.get('PLacme00000000000001')).toEqual([id]);
    const order = fake.requests.map((r) => `${r.method} ${r.path}`).filter((p) => !p.includes('/media/'));
    expect(order.lastIndexOf('PUT /upload/youtube/v3/videos')).toBeLessThan(order.indexOf('POST /upload/youtube/v3/thumbnails/set'));
  });

  it('a thumbnail that is not JPEG/PNG or over 2 MB → bad_media before anything is uploaded', async () => {
    fake.media.set('thumb.gif', { type: 'image/gif', bytes: Buffer.from('GIF89a....') });
    const gif = await adapter.publish(content({ options: { thumbnail_url: fake.mediaUrl('thumb.gif') } }), testContext(creds).ctx);
    expect(gif).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'youtube thumbnails are JPEG or PNG; thumbnail_url is image/gif', fix: expect.stringContaining('JPEG or PNG') });
    fake.media.set('big.jpg', { type: 'image/jpeg', bytes: Buffer.alloc(2 * 1024 * 1024 + 1, 1) });
    const big = await adapter.publish(content({ options: { thumbnail_url: fake.mediaUrl('big.jpg') } }), testContext(creds).ctx);
    expect(big).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media' });
    expect(fake.find('POST', '/upload/youtube/v3/videos')).toHaveLength(0);
  });

  it('a playlist YouTube refuses keeps the published video', async () => {
    const out = await adapter.publish(content({ options: { playlist_id: 'PLmissing0000000000001' } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    expect(fake.find('POST', '/youtube/v3/playlistItems')).toHaveLength(1);
  });
});
