import { createXAdapter } from '../../shared/networks/x';
import type { PublishContent } from '../../shared/ports/networks';
import { XFake } from '../../shared/networks/x/simulator';
import { watchContract } from '../contracts/watch';
import { xApiViolations } from '../contracts/x-openapi';
import { buildMp4 } from '../support/mp4';
import { testContext } from './context';

/** X post kinds: alt text (media metadata), polls, quote posts, replies, video fitness. */

const fake = new XFake();
// every request the adapter sends to X is checked against X's published OpenAPI document
const contract = watchContract(fake.server, xApiViolations);
let adapter: ReturnType<typeof createXAdapter>;
let creds: Record<string, string>;
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'shipping today', media: [], thread: [], send_key: 'post-1:x', ...over });
const tweetBodies = () => fake.find('POST', '/2/tweets').map((r) => r.json);

beforeAll(async () => {
  await fake.start();
  adapter = createXAdapter({ apiBase: fake.url, chunkSize: 64 * 1024, reserveMs: 50 });
  creds = { access_token: fake.token, user_id: fake.user.id, username: fake.user.username };
});
afterAll(() => fake.stop());
afterEach(() => expect(contract.take()).toEqual([]));
beforeEach(() => fake.reset());

describe('alt text', () => {
  it('sets alt_text on each image that has one (POST /2/media/metadata) before the post', async () => {
    fake.files.set('a.png', { type: 'image/png', bytes: Buffer.alloc(1000, 1) });
    fake.files.set('b.png', { type: 'image/png', bytes: Buffer.alloc(1000, 2) });
    const out = await adapter.publish(content({ media: [
      { url: fake.mediaUrl('a.png'), kind: 'image' },
      { url: fake.mediaUrl('b.png'), kind: 'image', alt: 'Bar chart: sales up 20%' },
    ] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const ids = [...fake.media.keys()];
    const [meta] = fake.find('POST', '/2/media/metadata');
    expect(fake.find('POST', '/2/media/metadata')).toHaveLength(1);
    expect(meta.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(meta.headers['content-type']).toBe('application/json');
    expect(meta.json).toEqual({ id: ids[1], metadata: { alt_text: { text: 'Bar chart: sales up 20%' } } });
    const order = fake.requests.map((r) => `${r.method} ${r.path}`).filter((p) => !p.includes('/media/'));
    expect(order.indexOf('POST /2/media/metadata')).toBeLessThan(order.indexOf('POST /2/tweets'));
    expect(tweetBodies()).toEqual([{ text: 'shipping today', media: { media_ids: ids } }]);
    expect([...fake.altTexts]).toEqual([[ids[1], 'Bar chart: sales up 20%']]);
  });

  it('X refusing the alt text → rejected, nothing posted', async () => {
    fake.files.set('a.png', { type: 'image/png', bytes: Buffer.alloc(100, 1) });
    fake.failNext('POST /2/media/metadata', XFake.problem(400, 'Invalid Request', 'alt_text.text: must be 1000 characters or fewer'));
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('a.png'), kind: 'image', alt: 'x' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.find('POST', '/2/tweets')).toHaveLength(0);
  });

  it('alt text over 1000 characters → bad_media with what/fix, before any call', () => {
    const out = adapter.check(content({ media: [{ url: 'https://x/a.png', kind: 'image', alt: 'a'.repeat(1001) }] }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'x takes alt text (alt_text) up to 1000 characters; media 1 has 1001', fix: expect.stringContaining('1000') });
    expect(adapter.check(content({ media: [{ url: 'https://x/a.png', kind: 'image', alt: 'a'.repeat(1000) }] }), creds)).toBeUndefined();
  });
});

describe('post kinds', () => {
  it('poll → {poll: {options, duration_minutes}}', async () => {
    await adapter.publish(content({ text: 'Which one?', options: { poll: { options: ['Tabs', 'Spaces'], duration_minutes: 60 } } }), testContext(creds).ctx);
    expect(tweetBodies()).toEqual([{ text: 'Which one?', poll: { options: ['Tabs', 'Spaces'], duration_minutes: 60 } }]);
  });

  it('quote by link → quote_tweet_id', async () => {
    await adapter.publish(content({ text: 'so true', options: { quote: 'https://x.com/jack/status/20?s=21' } }), testContext(creds).ctx);
    expect(tweetBodies()).toEqual([{ text: 'so true', quote_tweet_id: '20' }]);
  });

  it('reply_to → reply.in_reply_to_tweet_id on the first post; the thread continues under it', async () => {
    const out = await adapter.publish(content({ text: 'replying', thread: ['more'], options: { reply_to: 'https://twitter.com/i/web/status/1869999999999999999' } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true });
    const first = fake.tweets[0].id;
    expect(tweetBodies()).toEqual([
      { text: 'replying', reply: { in_reply_to_tweet_id: '1869999999999999999' } },
      { text: 'more', reply: { in_reply_to_tweet_id: first } },
    ]);
  });

  it('a poll with media → rejected by check, nothing sent', () => {
    const out = adapter.check(content({ media: [{ url: 'https://x/a.png', kind: 'image' }], options: { poll: { options: ['a', 'b'], duration_minutes: 5 } } }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
  });
});

describe('video fitness', () => {
  it('a video over 140 s (read from its header) → bad_media before the upload starts', async () => {
    fake.files.set('long.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 141, width: 1280, height: 720 }) });
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('long.mp4'), kind: 'video' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'x takes videos of 0.5–140 s; media 1 lasts 141.0 s' });
    expect(fake.find('POST', '/2/media/upload/initialize')).toHaveLength(0);
  });

  it('a 4K video → bad_media naming the frame size', async () => {
    fake.files.set('4k.mp4', { type: 'video/mp4', bytes: buildMp4({ seconds: 10, width: 3840, height: 2160 }) });
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('4k.mp4'), kind: 'video' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'x takes videos of at least 32 px a side, at most 1920×1200; media 1 is 3840×2160' });
    expect(fake.find('POST', '/2/media/upload/initialize')).toHaveLength(0);
  });
});
