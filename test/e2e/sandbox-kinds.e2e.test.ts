import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import { BlueskyFake, SandboxBluesky } from '../../shared/networks/bluesky/simulator';

/**
 * Post kinds in the sandbox of `npm start` (startLocalRuntime with its defaults): the simulators take
 * Bluesky video through the simulated video service, alt text, and an X poll, as the real networks would.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  rt = await startRuntime();
  api = client(rt.url, await signupThroughApi(rt.url, 'kinds@example.com', 'pro'));
}, 120_000);
afterAll(async () => { await rt?.stop(); });

it('a Bluesky video with alt text: the sandbox video service processes it and the post embeds it', async () => {
  const sb = rt.sandbox!;
  expect((await api('POST', '/api/connect', { platform: 'bluesky', credentials: sb.credentials().bluesky })).status).toBe(200);
  const res = await api('POST', '/api/post', {
    platform: 'bluesky', text: 'sandbox video', media: [{ url: sb.mediaUrl('sample.mp4'), alt: 'A short demo clip' }],
  });
  expect(res.body.results).toEqual([expect.objectContaining({ platform: 'bluesky', ok: true, status: 'published' })]);
  expect(sb.fake('bluesky', SandboxBluesky).video.calls('app.bsky.video.uploadVideo')).toHaveLength(1);
  const record = (sb.fake('bluesky', BlueskyFake).calls('com.atproto.repo.createRecord').at(-1)!.json as { record: { embed: Record<string, unknown> } }).record;
  expect(record.embed).toMatchObject({ $type: 'app.bsky.embed.video', alt: 'A short demo clip', video: { $type: 'blob', mimeType: 'video/mp4' } });
}, 120_000);

it('a request with an option the network does not have is refused before the sandbox sees anything', async () => {
  const before = rt.sandbox!.fake('bluesky', BlueskyFake).requests.length;
  const res = await api('POST', '/api/post', { platform: 'bluesky', text: 'hi', per_platform: { bluesky: { story: true } } });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'invalid_request', error: 'per_platform.bluesky.story: supported on instagram only' });
  expect(rt.sandbox!.fake('bluesky', BlueskyFake).requests).toHaveLength(before);
});
