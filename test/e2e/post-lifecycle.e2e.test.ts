import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

/** Deleting and editing a published post through the local runtime: API → SQS → publish worker → fake networks. */
let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop()]);
});

type Result = { platform: string; ok: boolean; status: string; code?: string; what?: string; fix?: string };

describe('PATCH and DELETE /api/posts/{id} through the local runtime', () => {
  it('edits on Telegram and Discord, deletes on both, answers deleted again without a network call, and shows it all in the events', async () => {
    const key = await signupThroughApi(rt.url, 'lifecycle@example.com', 'starter');
    const api = client(rt.url, key);
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
    const platforms = (await api('GET', '/api/platforms')).body.platforms as Array<{ name: string; delete: boolean; edit: boolean }>;
    expect(platforms.filter((p) => p.delete).map((p) => p.name).sort()).toEqual(['bluesky', 'devto', 'discord', 'facebook', 'hashnode', 'linkedin', 'mastodon', 'reddit', 'telegram', 'wordpress', 'x', 'youtube']);
    expect(platforms.filter((p) => p.edit).map((p) => p.name).sort()).toEqual(['devto', 'discord', 'facebook', 'hashnode', 'linkedin', 'mastodon', 'reddit', 'telegram', 'wordpress', 'youtube']);
    expect(platforms.find((p) => p.name === 'instagram')).toMatchObject({ delete: false, edit: false });

    const posted = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'Lanuch day' });
    expect(posted.status).toBe(200);
    const postId = posted.body.post_id as string;

    const edited = await api('PATCH', `/api/posts/${postId}`, { text: 'Launch day' });
    expect(edited.status).toBe(200);
    expect((edited.body.results as Result[]).map((r) => [r.platform, r.status])).toEqual([['telegram', 'edited'], ['discord', 'edited']]);
    expect(telegram.requests.filter((r) => r.path.endsWith('/editMessageText')).map((r) => (r.json as { text: string }).text)).toEqual(['Launch day']);
    expect([...discord.messages.values()]).toEqual(['Launch day']);

    const tooLong = await api('PATCH', `/api/posts/${postId}`, { text: 'x'.repeat(2001), platforms: ['discord'] });
    expect(tooLong.status).toBe(200);
    expect(tooLong.body.results).toEqual([expect.objectContaining({ platform: 'discord', ok: false, code: 'text_too_long' })]);

    const badQuery = await api('DELETE', `/api/posts/${postId}?platforms=myspace`);
    expect(badQuery.status).toBe(400);
    expect(badQuery.body).toMatchObject({ code: 'invalid_request' });

    const deleted = await api('DELETE', `/api/posts/${postId}`);
    expect(deleted.status).toBe(200);
    expect((deleted.body.results as Result[]).map((r) => [r.platform, r.ok, r.status])).toEqual([['telegram', true, 'deleted'], ['discord', true, 'deleted']]);
    expect(discord.messages.size).toBe(0);
    expect(telegram.sent.size).toBe(0);

    const calls = telegram.requests.length + discord.requests.length;
    const again = await api('DELETE', `/api/posts/${postId}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ change_id: null });
    expect((again.body.results as Result[]).map((r) => r.status)).toEqual(['deleted', 'deleted']);
    expect(telegram.requests.length + discord.requests.length).toBe(calls);

    const editDeleted = await api('PATCH', `/api/posts/${postId}`, { text: 'too late' });
    expect((editDeleted.body.results as Result[]).map((r) => r.code)).toEqual(['post_deleted', 'post_deleted']);

    await rt.drained();
    const view = await api('GET', `/api/posts/${postId}`);
    expect((view.body.events as Array<{ type: string }>).map((e) => e.type).sort()).toEqual(
      ['post.deleted', 'post.deleted', 'post.edited', 'post.edited', 'post.published', 'post.published']);
    expect((await api('DELETE', '/api/posts/pst_01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
  });
});
