import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import type { InboxEntry } from '../../shared/networks/sandbox-kit/sandbox-simulator';

/** `npm start` (sandbox mode): deleting and editing a post reaches the simulators at the real paths and shows in the inbox. */
let rt: LocalRuntime;
beforeAll(async () => { rt = await startRuntime(); }, 120_000);
afterAll(async () => { await rt?.stop(); });

type Result = { platform: string; ok: boolean; status: string; code?: string };

it('edit and delete on the credential simulators, one result per network; the inbox shows them', async () => {
  const api = client(rt.url, await signupThroughApi(rt.url, 'sandbox-lifecycle@example.com', 'pro'));
  const sb = (await client(rt.url)('GET', '/dev/sandbox')).body as { credentials: Record<string, Record<string, string>> };
  const networks = ['telegram', 'mastodon', 'discord', 'wordpress', 'bluesky', 'slack', 'devto', 'hashnode'];
  for (const platform of networks) expect((await api('POST', '/api/connect', { platform, credentials: sb.credentials[platform] })).status).toBe(200);
  const posted = await api('POST', '/api/post', { platforms: networks, text: 'Sandbox lifecycle', title: 'Sandbox lifecycle' });
  expect((posted.body.results as Result[]).every((r) => r.status === 'published')).toBe(true);
  const postId = posted.body.post_id as string;

  const edited = await api('PATCH', `/api/posts/${postId}`, { text: 'Sandbox lifecycle, edited' });
  expect((edited.body.results as Result[]).map((r) => [r.platform, r.status, r.code ?? null])).toEqual([
    ['telegram', 'edited', null], ['mastodon', 'edited', null], ['discord', 'edited', null], ['wordpress', 'edited', null],
    ['bluesky', 'failed', 'not_supported'], ['slack', 'failed', 'not_supported'], ['devto', 'edited', null], ['hashnode', 'edited', null],
  ]);
  const deleted = await api('DELETE', `/api/posts/${postId}`);
  expect((deleted.body.results as Result[]).map((r) => [r.platform, r.status, r.code ?? null])).toEqual([
    ['telegram', 'deleted', null], ['mastodon', 'deleted', null], ['discord', 'deleted', null], ['wordpress', 'deleted', null],
    ['bluesky', 'deleted', null], ['slack', 'failed', 'not_supported'], ['devto', 'deleted', null], ['hashnode', 'deleted', null],
  ]);

  const inbox = ((await client(rt.url)('GET', '/dev/sandbox')).body as { inbox: InboxEntry[] }).inbox;
  expect(inbox.filter((e) => e.change === 'edited').map((e) => e.network).sort()).toEqual(['devto', 'discord', 'hashnode', 'mastodon', 'telegram', 'wordpress']);
  expect(inbox.filter((e) => e.change === 'deleted').map((e) => e.network).sort()).toEqual(['bluesky', 'devto', 'discord', 'hashnode', 'mastodon', 'telegram', 'wordpress']);
  expect(inbox.find((e) => e.change === 'edited' && e.network === 'mastodon')?.text).toBe('Sandbox lifecycle, edited');
  const page = await (await fetch(`${rt.url}/dev/sandbox/inbox`)).text();
  expect(page).toContain('(deleted)');
}, 120_000);
