import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { BlueskyVideoFake } from '../../shared/networks/bluesky/video-simulator';
import { buildMp4 } from '../support/mp4';
import type { LocalRuntime } from '../../infra/local/runtime';

/** Post kinds through the local runtime: per_platform post kinds validated up front, alt text and media fitness, Bluesky video. */

let rt: LocalRuntime;
let api: ReturnType<typeof client>;
const pds = new BlueskyFake();
const videos = new BlueskyVideoFake();
type Result = { platform: string; ok: boolean; status: string; code?: string; error?: string; what?: string; fix?: string; id?: string };

beforeAll(async () => {
  await Promise.all([pds.start(), videos.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', BLUESKY_API_BASE: pds.url, BLUESKY_VIDEO_BASE: videos.url });
  api = client(rt.url, await signupThroughApi(rt.url, 'depth@example.com', 'starter'));
  const connected = await api('POST', '/api/connect', { platform: 'bluesky', credentials: { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' } });
  expect(connected.status).toBe(200);
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([pds.stop(), videos.stop()]);
});
beforeEach(() => {
  pds.reset();
  videos.reset();
  videos.states = [];
});

describe('per_platform options are validated up front (400, nothing stored or sent)', () => {
  const refused = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/post', body);
    expect(res.status).toBe(400);
    expect(pds.requests).toHaveLength(0);
    return res.body as { code: string; error: string };
  };

  it('an option the network does not have', async () => {
    const body = await refused({ platform: 'bluesky', text: 'hi', per_platform: { bluesky: { poll: { options: ['a', 'b'], duration_minutes: 60 } } } });
    expect(body).toMatchObject({ code: 'invalid_request', error: 'per_platform.bluesky.poll: supported on x only', platforms: ['bluesky'], option: 'poll' });
  });

  it('a quote that is not a Bluesky post link', async () => {
    const body = await refused({ platform: 'bluesky', text: 'hi', per_platform: { bluesky: { quote: 'https://x.com/jack/status/20' } } });
    expect(body.error).toMatch(/^per_platform\.bluesky\.quote: not a bluesky post: send a https:\/\/bsky\.app/);
  });

  it('a link card together with media', async () => {
    const body = await refused({ platform: 'bluesky', text: 'hi https://example.com', photo_url: pds.mediaUrl('a.png'), per_platform: { bluesky: { link_card: true } } });
    expect(body.error).toMatch(/either media or a link card/);
  });

  it('unknown fields in a draft or a media item, and photo_alt without photo_url', async () => {
    expect(await refused({ platform: 'bluesky', text: 'hi', per_platform: { bluesky: { quotes: 'at://x' } } }))
      .toMatchObject({ code: 'unknown_field', fields: ['per_platform.bluesky.quotes'], suggestions: { 'per_platform.bluesky.quotes': 'quote' } });
    expect(await refused({ platform: 'bluesky', text: 'hi', media: [{ url: pds.mediaUrl('a.png'), alts: 'x' }] }))
      .toMatchObject({ code: 'unknown_field', fields: ['media.0.alts'] });
    expect((await refused({ platform: 'bluesky', text: 'hi', photo_alt: 'a photo' })).error).toMatch(/photo_alt describes photo_url/);
  });
});

describe('alt text and media fitness before sending', () => {
  it('photo_alt reaches Bluesky as the image alt', async () => {
    pds.media.set('a.png', { type: 'image/png', bytes: Buffer.alloc(500, 1) });
    const res = await api('POST', '/api/post', { platform: 'bluesky', text: 'pic', photo_url: pds.mediaUrl('a.png'), photo_alt: 'A sunrise over hills' });
    expect((res.body.results as Result[])[0]).toMatchObject({ ok: true, status: 'published' });
    const record = (pds.calls('com.atproto.repo.createRecord')[0].json as { record: { embed: { images: Array<{ alt: string }> } } }).record;
    expect(record.embed.images.map((i) => i.alt)).toEqual(['A sunrise over hills']);
  });

  it('alt text over Bluesky\'s limit → bad_media with what/fix; nothing is sent', async () => {
    const res = await api('POST', '/api/post', { platform: 'bluesky', text: 'pic', media: [{ url: pds.mediaUrl('a.png'), alt: 'x'.repeat(2001) }] });
    expect(res.status).toBe(200);
    const [r] = res.body.results as Result[];
    expect(r).toMatchObject({ ok: false, code: 'bad_media', error: 'bluesky takes alt text (alt) up to 2000 characters; media 1 has 2001' });
    expect(r.fix).toMatch(/Shorten media\[0\]\.alt to 2000/);
    expect(pds.requests).toHaveLength(0);
  });

  it('an image over 1,000,000 bytes (from the link\'s headers) → bad_media at request time, no sign-in', async () => {
    pds.media.set('big.png', { type: 'image/png', bytes: Buffer.alloc(1_200_000, 1) });
    const res = await api('POST', '/api/post', { platform: 'bluesky', text: 'big', photo_url: pds.mediaUrl('big.png') });
    const [r] = res.body.results as Result[];
    expect(r).toMatchObject({ ok: false, code: 'bad_media', error: 'bluesky takes images up to 1000000 bytes (1.0 MB); media 1 has 1200000 bytes (1.2 MB)' });
    expect(r.what).toMatch(/larger than bluesky accepts/);
    expect(pds.calls('com.atproto.server.createSession')).toHaveLength(0);
  });
});

describe('Bluesky video through the worker', () => {
  it('a video with alt is uploaded to the video service and posted as app.bsky.embed.video', async () => {
    const mp4 = buildMp4({ seconds: 8, width: 1920, height: 1080, payloadBytes: 4096 });
    pds.media.set('clip.mp4', { type: 'video/mp4', bytes: mp4 });
    const res = await api('POST', '/api/post', { platform: 'bluesky', text: 'demo', media: [{ url: pds.mediaUrl('clip.mp4'), alt: 'Product demo, no sound' }] });
    const [r] = res.body.results as Result[];
    expect(r).toMatchObject({ ok: true, status: 'published', id: expect.stringMatching(/^at:\/\/did:plc:alice\/app\.bsky\.feed\.post\//) });
    expect(videos.calls('app.bsky.video.uploadVideo')[0].body.equals(mp4)).toBe(true);
    const record = (pds.calls('com.atproto.repo.createRecord')[0].json as { record: { embed: unknown } }).record;
    expect(record.embed).toEqual({
      $type: 'app.bsky.embed.video', video: BlueskyVideoFake.blob('job1', mp4.length), alt: 'Product demo, no sound', aspectRatio: { width: 1920, height: 1080 },
    });
  });
});

it('the OpenAPI document shows each per_platform option with an example, and alt text', async () => {
  const doc = (await api('GET', '/api/openapi.json')).body as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
  const text = JSON.stringify(doc);
  for (const option of ['reply_to', 'quote', 'link_card', 'poll']) expect(text).toContain(`"${option}":`);
  expect(text).toContain('"examples":[{"options":["Tabs","Spaces"],"duration_minutes":1440}]');
  expect(text).toContain('https://bsky.app/profile/alice.bsky.social/post/3l6oveex3ii2l');
  expect(text).toContain('"photo_alt":');
  expect(text).toContain('A red bicycle leaning against a brick wall');
});
