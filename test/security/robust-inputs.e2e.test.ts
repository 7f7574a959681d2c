import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

let rt: LocalRuntime;
let api: ReturnType<typeof client>;
const telegram = new TelegramFake();

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  api = client(rt.url, await signupThroughApi(rt.url, 'robust@example.com'));
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
});
afterAll(async () => {
  await rt?.stop();
  await telegram.stop();
});

describe('inputs that used to give a 500 answer a 4xx JSON error', () => {
  it('a malformed own-media URL in a post is media_unreachable, not a 500', async () => {
    const res = await api('POST', '/api/post', { text: 'bad media', platforms: ['telegram'], photo_url: `${rt.url}/media/%ff.png` });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, code: 'media_unreachable' })]);
  });

  it('a garbage cursor is 400 invalid_cursor; a far-future from is an empty page; a year past 9999 is 400', async () => {
    for (const cursor of ['garbage', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('2026-01-01T00:00:00.000Z#sch_x').toString('base64url')]) {
      expect(await api('GET', `/api/schedule?cursor=${cursor}`)).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
    }
    expect(await api('GET', '/api/schedule?from=9999-12-31T00:00:00Z')).toMatchObject({ status: 200, body: { schedules: [], next_cursor: null } });
    expect(await api('GET', '/api/schedule?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).toMatchObject({ status: 200, body: { schedules: [] } });
    expect(await api('GET', '/api/schedule?from=%2B010000-01-01T00:00:00Z')).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('%s as {platform} in OAuth routes is a 4xx', async (name) => {
    const callback = await api('GET', `/api/oauth/${name}/callback?code=a&state=b`);
    expect(callback.status).toBe(404);
    expect(callback.headers.get('content-type')).toMatch(/text\/html/);
    expect((await api('POST', `/api/oauth/${name}/url`, {})).status).toBe(400);
    expect((await api('POST', `/api/oauth/${name}/pick`, 'pick=a&account=b', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(404);
    expect((await api('GET', `/api/connect/${name}/health`)).status).toBe(404);
  });

  it.each(['/api/posts/%ff', '/api/posts/%C0%AF', '/media/%ff.png', '/upload/%ff', '/connect/%C0%AF', '/api/schedule/%ff', '/api/oauth/%ff/callback'])(
    'percent-encoding that does not decode (%s) is 404 JSON', async (path) => {
      expect(await api('GET', path)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    });

  it.each([
    ['GET', `/api/posts/${'a'.repeat(101)}`], ['DELETE', `/api/keys/${'a'.repeat(101)}`], ['GET', `/api/schedule/${'s'.repeat(101)}`],
    ['GET', `/api/webhooks/${'w'.repeat(101)}/deliveries`], ['GET', `/media/${'m'.repeat(300)}.png`], ['GET', `/api/media/upload-link/${'t'.repeat(300)}`],
    ['GET', `/connect/${'t'.repeat(300)}`],
  ])('%s an id over the length limit (%s) is 404, not 400', async (method, path) => {
    expect(await api(method, path)).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});
