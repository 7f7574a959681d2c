import { createMastodonAdapter } from '../../shared/networks/mastodon';
import { createTelegramAdapter } from '../../shared/networks/telegram';
import { createDiscordAdapter } from '../../shared/networks/discord';
import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import { createXAdapter } from '../../shared/networks/x';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { XFake } from '../../shared/networks/x/simulator';
import { createWordpressAdapter } from '../../shared/networks/wordpress';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from '../../shared/networks/wordpress/simulator';
import { buildRegistry } from '../../shared/networks/registry';
import { networkLimits } from '../../shared/networks/descriptor-limits';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { parseConfig } from '../../shared/config';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { testContext } from './context';
import { watchContract } from '../contracts/watch';
import { atprotoViolations } from '../contracts/atproto';
import { xApiViolations } from '../contracts/x-openapi';

/** Deleting and editing published posts, per network, against each network's loopback fake: the exact requests. */

const content = (text: string, over: Partial<PublishContent> = {}): PublishContent => ({ text, media: [], thread: [], send_key: 'pst_1:x', ...over });

async function publishedId(adapter: NetworkAdapter, text: string, credentials: Record<string, string>, over: Partial<PublishContent> = {}) {
  const out = await adapter.publish(content(text, over), testContext(credentials).ctx);
  if (!out.ok) throw new Error(`publish failed: ${out.error}`);
  return { id: out.id, url: out.url };
}

describe('the static delete / edit flags match the adapters', () => {
  it('GET /api/platforms says delete / edit exactly where the adapter has the member', () => {
    const registry = buildRegistry(parseConfig({}));
    for (const name of PLATFORM_NAMES) {
      const adapter = registry[name]!;
      expect({ name, delete: typeof adapter.delete === 'function', edit: typeof adapter.edit === 'function' }).toEqual({ name, ...networkLimits().manage(name) });
    }
    expect(PLATFORM_NAMES.filter((name) => networkLimits().manage(name).delete).sort()).toEqual(['bluesky', 'devto', 'discord', 'facebook', 'hashnode', 'linkedin', 'mastodon', 'reddit', 'telegram', 'wordpress', 'x', 'youtube']);
  });
});

describe('mastodon', () => {
  const fake = new MastodonFake();
  const adapter = createMastodonAdapter({ pollIntervalMs: 10 });
  let creds: Record<string, string>;
  beforeAll(async () => { await fake.start(); creds = { instance_url: fake.url, access_token: 'good-token' }; });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('delete: DELETE /api/v1/statuses/:id with the bearer token; a status already gone counts as deleted', async () => {
    const ref = await publishedId(adapter, 'hello', creds);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.text])).toEqual([['DELETE', `/api/v1/statuses/${ref.id}`, 'Bearer good-token', '']]);
    expect(fake.texts.has(ref.id)).toBe(false);
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
  });

  it('edit: PUT /api/v1/statuses/:id {status}; the content check runs first and a refused text sends nothing', async () => {
    const ref = await publishedId(adapter, 'helo', creds);
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('hello'), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.json])).toEqual([['PUT', `/api/v1/statuses/${ref.id}`, 'Bearer good-token', { status: 'hello' }]]);
    expect(fake.texts.get(ref.id)).toBe('hello');
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('a'.repeat(501)), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a refused token is reauth; an edit of a deleted status is rejected', async () => {
    const ref = await publishedId(adapter, 'x', creds);
    expect(await adapter.delete!(ref, testContext({ ...creds, access_token: 'bad' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    await adapter.delete!(ref, testContext(creds).ctx);
    expect(await adapter.edit!(ref, content('y'), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('deleted') });
  });
});

describe('telegram', () => {
  const fake = new TelegramFake();
  let adapter: NetworkAdapter;
  const creds = () => ({ bot_token: fake.token, chat_id: '-1001234567890', chat_type: 'channel', chat_username: 'acmenews' });
  beforeAll(async () => { adapter = createTelegramAdapter({ apiBase: await fake.start() }); });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('delete: POST deleteMessage {chat_id, message_id}; a message already gone counts as deleted', async () => {
    const ref = await publishedId(adapter, 'hello', creds());
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds()).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.json])).toEqual([['POST', `/bot${fake.token}/deleteMessage`, { chat_id: '-1001234567890', message_id: Number(ref.id) }]]);
    expect(await adapter.delete!(ref, testContext(creds()).ctx)).toEqual({ ok: true });
  });

  it('edit: editMessageText for text (HTML escaped), editMessageCaption for a photo; the same text again is edited', async () => {
    const text = await publishedId(adapter, 'a < b', creds());
    const photo = await publishedId(adapter, 'cap', creds(), { media: [{ url: 'https://example.com/a.jpg', kind: 'image' }] });
    fake.requests.length = 0;
    expect(await adapter.edit!(text, content('a > b'), testContext(creds()).ctx)).toEqual({ ok: true, url: text.url });
    expect(await adapter.edit!(photo, content('new cap', { media: [{ url: 'https://example.com/a.jpg', kind: 'image' }] }), testContext(creds()).ctx)).toEqual({ ok: true, url: photo.url });
    expect(await adapter.edit!(text, content('a > b'), testContext(creds()).ctx)).toEqual({ ok: true, url: text.url });
    expect(fake.requests.map((r) => [r.path.split('/').pop(), r.json])).toEqual([
      ['editMessageText', { chat_id: '-1001234567890', message_id: Number(text.id), text: 'a &gt; b', parse_mode: 'HTML' }],
      ['editMessageCaption', { chat_id: '-1001234567890', message_id: Number(photo.id), caption: 'new cap', parse_mode: 'HTML' }],
      ['editMessageText', { chat_id: '-1001234567890', message_id: Number(text.id), text: 'a &gt; b', parse_mode: 'HTML' }],
    ]);
  });

  it('an edit of a deleted message is rejected; a bad token is reauth', async () => {
    const ref = await publishedId(adapter, 'x', creds());
    expect(await adapter.delete!(ref, testContext({ ...creds(), bot_token: '1:bad' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    await adapter.delete!(ref, testContext(creds()).ctx);
    expect(await adapter.edit!(ref, content('y'), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('deleted') });
  });
});

describe('discord', () => {
  const fake = new DiscordFake();
  const adapter = createDiscordAdapter();
  const creds = () => ({ webhook_url: fake.webhookUrl, guild_id: fake.guildId, channel_id: fake.channelId });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('delete: DELETE <webhook>/messages/<id> (204); an unknown message counts as deleted', async () => {
    const ref = await publishedId(adapter, 'hello', creds());
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds()).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.text])).toEqual([['DELETE', `${fake.webhookPath}/messages/${ref.id}`, '']]);
    expect(fake.messages.has(ref.id)).toBe(false);
    expect(await adapter.delete!(ref, testContext(creds()).ctx)).toEqual({ ok: true });
  });

  it('edit: PATCH <webhook>/messages/<id> {content, allowed_mentions: {parse: []}}', async () => {
    const ref = await publishedId(adapter, 'hello', creds());
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('hello @everyone'), testContext(creds()).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.requests.map((r) => [r.method, r.path, r.json])).toEqual([['PATCH', `${fake.webhookPath}/messages/${ref.id}`, { content: 'hello @everyone', allowed_mentions: { parse: [] } }]]);
    expect(fake.messages.get(ref.id)).toBe('hello @everyone');
  });

  it('a webhook that is gone is reauth; an id that is not a message id is rejected without a call', async () => {
    expect(await adapter.delete!({ id: 'not-a-snowflake' }, testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests).toHaveLength(0);
    const gone = { webhook_url: `${fake.server.url}/api/webhooks/999/${fake.webhookToken}` };
    expect(await adapter.delete!({ id: '333333333333333000' }, testContext(gone).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });
});

describe('bluesky (delete only)', () => {
  const fake = new BlueskyFake();
  // every request (the publish, the session, the delete) against the atproto lexicons
  const contract = watchContract(fake.server, atprotoViolations);
  const creds = { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' };
  let adapter: NetworkAdapter;
  afterEach(() => expect(contract.take()).toEqual([]));
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => { fake.reset(); adapter = createBlueskyAdapter({ apiBase: fake.url }); });

  it('delete: com.atproto.repo.deleteRecord {repo, collection, rkey} with the session token; repeating it is fine', async () => {
    const ref = await publishedId(adapter, 'hello sky', creds);
    expect(fake.created.has('rkey1')).toBe(true);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.json])).toEqual([
      ['POST', '/xrpc/com.atproto.repo.deleteRecord', 'Bearer access-jwt-1', { repo: 'did:plc:alice', collection: 'app.bsky.feed.post', rkey: 'rkey1' }],
    ]);
    expect(fake.created.size).toBe(0);
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(adapter.edit).toBeUndefined();
  });

  it('an id that is not a post at:// address is rejected without a call', async () => {
    expect(await adapter.delete!({ id: 'bluesky-video-job:abc' }, testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('x (delete only)', () => {
  const fake = new XFake();
  // every request (the publish, the delete) against X's OpenAPI document
  const contract = watchContract(fake.server, xApiViolations);
  afterEach(() => expect(contract.take()).toEqual([]));
  let adapter: NetworkAdapter;
  let creds: Record<string, string>;
  beforeAll(async () => { await fake.start(); adapter = createXAdapter({ apiBase: fake.url }); creds = { access_token: fake.token, user_id: fake.user.id, username: fake.user.username }; });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('delete: DELETE /2/tweets/:id with the bearer token; a post already gone counts as deleted', async () => {
    const ref = await publishedId(adapter, 'hello x', creds);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.text])).toEqual([['DELETE', `/2/tweets/${ref.id}`, `Bearer ${fake.token}`, '']]);
    expect(fake.deleted.has(ref.id)).toBe(true);
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(await adapter.delete!(ref, testContext({ ...creds, access_token: 'nope' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(adapter.edit).toBeUndefined();
  });
});

describe('wordpress', () => {
  const fake = new FakeWordpress();
  const adapter = createWordpressAdapter();
  let creds: Record<string, string>;
  const basic = FakeWordpress.basic();
  beforeAll(async () => { await fake.start(); creds = { site_url: fake.url, username: WP_USER, app_password: WP_APP_PASSWORD }; });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('edit: POST /wp-json/wp/v2/posts/<id> {title, content} (escaped paragraphs) with Basic auth', async () => {
    const ref = await publishedId(adapter, 'Old title\nold body', creds);
    fake.requests.length = 0;
    expect(await adapter.edit!(ref, content('New <title>\nnew body', { title: 'New <title>' }), testContext(creds).ctx)).toEqual({ ok: true, url: ref.url });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.json])).toEqual([
      ['POST', `/wp-json/wp/v2/posts/${ref.id}`, basic, { title: 'New &lt;title&gt;', content: '<p>New &lt;title&gt;<br>\nnew body</p>' }],
    ]);
  });

  it('delete: DELETE /wp-json/wp/v2/posts/<id> (to the trash); already trashed or unknown counts as deleted', async () => {
    const ref = await publishedId(adapter, 'Title\nbody', creds);
    fake.requests.length = 0;
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.headers.authorization, r.url.search])).toEqual([['DELETE', `/wp-json/wp/v2/posts/${ref.id}`, basic, '']]);
    expect(fake.posts.find((p) => p.id === Number(ref.id))?.status).toBe('trash');
    expect(await adapter.delete!(ref, testContext(creds).ctx)).toEqual({ ok: true });
    expect(await adapter.delete!({ id: '99999' }, testContext(creds).ctx)).toEqual({ ok: true });
    expect(await adapter.delete!(ref, testContext({ ...creds, app_password: 'wrong pass word xxxx' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });
});
