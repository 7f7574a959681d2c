import { createMastodonAdapter } from '../../shared/networks/mastodon';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { testContext } from './context';

/** Mastodon post kinds: alt text as the media description, replies to an existing status. */

const fake = new MastodonFake();
const adapter: NetworkAdapter = createMastodonAdapter({ pollIntervalMs: 50 });
let creds: Record<string, string>;
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'hello fediverse', media: [], thread: [], send_key: 'post-1:mastodon', ...over });
/** The value of one multipart field of a recorded request. */
const part = (text: string, name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(text)?.[1];

beforeAll(async () => {
  await fake.start();
  creds = { instance_url: fake.url, access_token: 'good-token' };
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

it('alt text goes as the upload\'s description; an image without alt sends none', async () => {
  fake.media.set('a.png', { type: 'image/png', bytes: Buffer.alloc(10, 1) });
  fake.media.set('b.png', { type: 'image/png', bytes: Buffer.alloc(10, 2) });
  await adapter.publish(content({ media: [{ url: fake.mediaUrl('a.png'), kind: 'image', alt: 'Team photo at the launch' }, { url: fake.mediaUrl('b.png'), kind: 'image' }] }), testContext(creds).ctx);
  const uploads = fake.find('POST', '/api/v2/media');
  expect(uploads.map((u) => part(u.text, 'description'))).toEqual(['Team photo at the launch', undefined]);
  expect(fake.find('POST', '/api/v1/statuses')[0].json).toMatchObject({ media_ids: ['101', '102'] });
});

it('alt text over 1500 characters → bad_media with what/fix before any call', () => {
  expect(adapter.check(content({ media: [{ url: 'https://a/b.png', kind: 'image', alt: 'x'.repeat(1501) }] }), creds))
    .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: 'mastodon takes alt text (description) up to 1500 characters; media 1 has 1501', what: expect.any(String), fix: expect.any(String) });
});

it('reply_to a status link on the own server → in_reply_to_id with its id, no lookup', async () => {
  await adapter.publish(content({ text: 'me too', options: { reply_to: `${fake.url.replace('http:', 'https:')}/@bob/110000000000000001` } }), testContext(creds).ctx);
  expect(fake.calls).toEqual(['POST /api/v1/statuses']);
  expect(fake.find('POST', '/api/v1/statuses')[0].json).toEqual({ status: 'me too', visibility: 'public', in_reply_to_id: '110000000000000001' });
});

it('reply_to a link from another server → resolved through search, then in_reply_to_id', async () => {
  fake.remoteStatuses.set('https://other.example/@carol/42', '777');
  await adapter.publish(content({ text: 'agreed', options: { reply_to: 'https://other.example/@carol/42' } }), testContext(creds).ctx);
  const [search] = fake.find('GET', '/api/v2/search');
  expect(search.headers.authorization).toBe('Bearer good-token');
  expect(Object.fromEntries(search.url.searchParams)).toEqual({ q: 'https://other.example/@carol/42', resolve: 'true', type: 'statuses', limit: '1' });
  expect(fake.find('POST', '/api/v1/statuses')[0].json).toEqual({ status: 'agreed', visibility: 'public', in_reply_to_id: '777' });
});

it('a link the server cannot find → rejected naming it; nothing posted', async () => {
  const out = await adapter.publish(content({ options: { reply_to: 'https://other.example/@carol/43' } }), testContext(creds).ctx);
  expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('could not find https://other.example/@carol/43') });
  expect(fake.find('POST', '/api/v1/statuses')).toHaveLength(0);
});
