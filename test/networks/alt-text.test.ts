import { createDiscordAdapter } from '../../shared/networks/discord';
import { createInstagramAdapter } from '../../shared/networks/instagram';
import { createLinkedinAdapter } from '../../shared/networks/linkedin';
import { createWordpressAdapter } from '../../shared/networks/wordpress';
import type { PublishContent } from '../../shared/ports/networks';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { InstagramFake } from '../../shared/networks/instagram/simulator';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { FakeServer } from '../../shared/networks/sandbox-kit/fake-server';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from '../../shared/networks/wordpress/simulator';
import { PNG_BYTES } from '../../shared/networks/sandbox-kit/sample-media';
import { testContext } from './context';

/** Alt text (media[].alt) as each network takes it: LinkedIn altText, WordPress alt_text, Instagram alt_text, Discord description. */

const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Hello', media: [], thread: [], send_key: 'k1', ...over });

describe('linkedin altText', () => {
  const fake = new LinkedinFake();
  const adapter = () => createLinkedinAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  const creds = () => ({ access_token: fake.token(), author_urn: 'urn:li:person:abc123XYZ' });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('one image → content.media {id, altText}', async () => {
    fake.media.set('a.png', { type: 'image/png', bytes: Buffer.from('PNG-A') });
    await adapter().publish(content({ media: [{ url: fake.mediaUrl('a.png'), kind: 'image', alt: 'Our new office' }] }), testContext(creds()).ctx);
    expect((fake.find('POST', '/rest/posts')[0].json as { content: unknown }).content).toEqual({ media: { id: 'urn:li:image:C4D1', altText: 'Our new office' } });
  });

  it('several images → multiImage with each image\'s altText (none where no alt was given)', async () => {
    fake.media.set('a.jpg', { type: 'image/jpeg', bytes: Buffer.from('A') });
    fake.media.set('b.gif', { type: 'image/gif', bytes: Buffer.from('B') });
    await adapter().publish(content({ media: [{ url: fake.mediaUrl('a.jpg'), kind: 'image', alt: 'First' }, { url: fake.mediaUrl('b.gif'), kind: 'image' }] }), testContext(creds()).ctx);
    expect((fake.find('POST', '/rest/posts')[0].json as { content: unknown }).content)
      .toEqual({ multiImage: { images: [{ id: 'urn:li:image:C4D1', altText: 'First' }, { id: 'urn:li:image:C4D2' }] } });
  });

  it('altText over 4086 characters → bad_media before any call', () => {
    expect(adapter().check(content({ media: [{ url: 'https://a/b.png', kind: 'image', alt: 'x'.repeat(4087) }] }), creds()))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'linkedin takes alt text (altText) up to 4086 characters; media 1 has 4087' });
  });
});

describe('wordpress alt_text', () => {
  const wp = new FakeWordpress();
  const adapter = createWordpressAdapter();
  const creds = () => ({ site_url: `${wp.url}/`, username: WP_USER, app_password: WP_APP_PASSWORD });
  beforeAll(() => wp.start());
  afterAll(() => wp.stop());
  beforeEach(() => { wp.server.requests.length = 0; wp.replies = {}; wp.nextPostId = 101; });

  it('sets alt_text on the uploaded featured image before the post', async () => {
    const out = await adapter.publish(content({ title: 'Pic', media: [{ url: `${wp.url}/files/cover.png`, kind: 'image', alt: 'A lighthouse at dusk' }] }), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: true, id: '101' });
    expect(wp.apiRequests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /wp-json/wp/v2/media', 'POST /wp-json/wp/v2/media/7', 'POST /wp-json/wp/v2/posts']);
    const meta = wp.apiRequests[1];
    expect(meta.headers.authorization).toBe(FakeWordpress.basic());
    expect(meta.json).toEqual({ alt_text: 'A lighthouse at dusk' });
    expect(Buffer.compare(wp.apiRequests[0].body, PNG_BYTES)).toBe(0);
    expect(wp.apiRequests[2].json).toMatchObject({ featured_media: 7 });
  });
});

describe('instagram alt_text', () => {
  const fake = new InstagramFake();
  const ig = '17841400000000001';
  let creds: Record<string, string>;
  const adapter = () => createInstagramAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    const user = fake.userToken();
    creds = { access_token: user, ig_user_id: ig, username: 'acme.bakery', page_id: '101', page_access_token: fake.pageToken(user, '101') };
  });

  it('an image container carries alt_text', async () => {
    await adapter().publish(content({ text: 'Bread', media: [{ url: 'https://cdn.example.com/p1.jpg', kind: 'image', alt: 'Sourdough loaves on a rack' }] }), testContext(creds).ctx);
    expect(fake.params(fake.requests[0])).toEqual({ image_url: 'https://cdn.example.com/p1.jpg', caption: 'Bread', alt_text: 'Sourdough loaves on a rack', access_token: creds.page_access_token });
  });

  it('carousel image items carry their own alt_text; video items none', async () => {
    await adapter().publish(content({ text: 'Batch', media: [
      { url: 'https://cdn.example.com/p1.jpg', kind: 'image', alt: 'Loaf one' },
      { url: 'https://cdn.example.com/r.mp4', kind: 'video', alt: 'ignored for video' },
    ] }), testContext(creds).ctx);
    const items = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${ig}/media`)).slice(0, 2).map((r) => fake.params(r));
    expect(items).toEqual([
      { is_carousel_item: 'true', image_url: 'https://cdn.example.com/p1.jpg', alt_text: 'Loaf one', access_token: creds.page_access_token },
      { is_carousel_item: 'true', media_type: 'VIDEO', video_url: 'https://cdn.example.com/r.mp4', access_token: creds.page_access_token },
    ]);
  });
});

describe('discord attachment description', () => {
  const fake = new DiscordFake();
  const files = new FakeServer((req) => (req.path === '/cat.png' ? { status: 200, headers: { 'content-type': 'image/png' }, body: PNG_BYTES } : { status: 404, body: 'no' }));
  const adapter = createDiscordAdapter();
  const creds = () => ({ webhook_url: fake.webhookUrl, guild_id: fake.guildId, channel_id: fake.channelId });
  beforeAll(async () => { await fake.start(); await files.start(); });
  afterAll(async () => { await fake.stop(); await files.stop(); });
  beforeEach(() => { fake.reset(); files.requests.length = 0; });

  it('an image with alt → uploaded as files[0] with attachments[0].description (multipart), no embed', async () => {
    const out = await adapter.publish(content({ text: 'meow', media: [{ url: `${files.url}/cat.png`, kind: 'image', alt: 'A grey cat asleep' }] }), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const [post] = fake.requests;
    expect(post.url.search).toBe('?wait=true');
    expect(post.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const payload = /name="payload_json"\r\n(?:Content-Type: [^\r]+\r\n)?\r\n([^\r]*)\r\n/.exec(post.text)?.[1];
    expect(JSON.parse(payload!)).toEqual({ content: 'meow', allowed_mentions: { parse: [] }, attachments: [{ id: 0, filename: 'cat.png', description: 'A grey cat asleep' }] });
    expect(post.text).toMatch(/name="files\[0\]"; filename="cat.png"\r\nContent-Type: image\/png/);
    expect(post.body.includes(PNG_BYTES)).toBe(true);
  });

  it('an image without alt stays an embed by URL (no download)', async () => {
    await adapter.publish(content({ text: 'meow', media: [{ url: `${files.url}/cat.png`, kind: 'image' }] }), testContext(creds()).ctx);
    expect(fake.requests[0].json).toEqual({ content: 'meow', allowed_mentions: { parse: [] }, embeds: [{ image: { url: `${files.url}/cat.png` } }] });
    expect(files.requests).toHaveLength(0);
  });

  it('a description over 1024 characters → bad_media before any call', () => {
    expect(adapter.check(content({ media: [{ url: 'https://a/b.png', kind: 'image', alt: 'x'.repeat(1025) }] }), creds()))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'discord takes alt text (description) up to 1024 characters; media 1 has 1025' });
  });
});
