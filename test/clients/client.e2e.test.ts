import { signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';
import { routeList } from '../../functions/routes';
import { openApiDocument } from '../../shared/http/openapi';
import { createSocialClient, SocialApiError, unwrap, type ApiErrorBody } from '../../shared/client/index';

const doc = openApiDocument(routeList, 'https://api.example.com') as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

let rt: LocalRuntime;
const telegram = new TelegramFake();

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
});
afterAll(async () => {
  await rt?.stop();
  await telegram.stop();
});

describe('the typed client (shared/client) against the local runtime', () => {
  it('drives the main flows with typed requests and answers, and types errors by code', async () => {
    const key = await signupThroughApi(rt.url, 'client@example.com', 'starter');
    const api = createSocialClient({ baseUrl: rt.url, apiKey: key });

    const me = await unwrap(api.GET('/api/me'));
    expect(me.account.email).toBe('client@example.com');
    const { data: plans } = await api.GET('/api/plans');
    expect(plans).toBeDefined();

    const brand = await unwrap(api.POST('/api/brands', { body: { name: 'Client brand' } }));
    const renamed = await unwrap(api.PATCH('/api/brands/{id}', { params: { path: { id: brand.brand.id } }, body: { name: 'Renamed', timezone: 'Europe/Berlin' } }));
    expect(renamed).toMatchObject({ id: brand.brand.id, name: 'Renamed' });
    const created = await unwrap(api.POST('/api/keys', { body: { name: 'second' } }));
    expect(created.api_key).toMatch(/^svc_live_/);
    const revoked = await unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id: created.id } } }));
    expect(revoked).toMatchObject({ id: created.id, revoked: true });

    const connected = await unwrap(api.POST('/api/connect', { body: { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' }, brand_id: brand.brand.id } }));
    expect(connected.connection).toMatchObject({ platform: 'telegram' });
    const posted = await unwrap(api.POST('/api/post', { body: { platforms: ['telegram'], text: 'Typed hello', brand_id: brand.brand.id } }));
    expect(posted.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true, status: 'published' })]);
    const post = await unwrap(api.GET('/api/posts/{id}', { params: { path: { id: posted.post_id } } }));
    expect(post.id).toBe(posted.post_id);
    const status = await unwrap(api.GET('/api/post/status', { params: { query: { platform: 'telegram', id: posted.post_id } } }));
    expect(status).toMatchObject({ post_id: posted.post_id, status: 'published' });

    const runAt = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await unwrap(api.POST('/api/schedule', { body: { platforms: ['telegram'], text: 'Later', run_at: runAt, brand_id: brand.brand.id } }));
    const listed = await unwrap(api.GET('/api/schedule', { params: { query: {} } }));
    expect(listed.schedules.map((s) => s.schedule_id)).toContain(scheduled.schedule_id);
    const canceled = await unwrap(api.DELETE('/api/schedule/{id}', { params: { path: { id: scheduled.schedule_id } } }));
    expect(canceled.status).toBe('canceled');

    // errors: typed body with its code, and SocialApiError with status, code and class through unwrap
    const missing = await api.GET('/api/posts/{id}', { params: { path: { id: 'pst_01ARZ3NDEKTSV4RRFFQ69G5FAV' } } });
    const body: ApiErrorBody | undefined = missing.error;
    expect(missing.response.status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    const refused = await unwrap(api.POST('/api/brands', { body: { name: '' } })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SocialApiError);
    expect(refused).toMatchObject({ status: 400, errorClass: 'invalid', code: expect.any(String) });
    const badKey = await unwrap(createSocialClient({ baseUrl: rt.url, apiKey: 'svc_live_' + 'B'.repeat(40) }).GET('/api/me')).catch((e: unknown) => e);
    expect(badKey).toMatchObject({ status: 401, errorClass: 'auth' });
    const down = await unwrap(createSocialClient({ baseUrl: 'http://127.0.0.1:9', apiKey: key }).GET('/api/me')).catch((e: unknown) => e);
    expect(down).toMatchObject({ status: 0, errorClass: 'network', code: 'network_error' });
  });

  it('every public route is callable through the client: a documented answer, errors as {error, code}', async () => {
    const key = await signupThroughApi(rt.url, 'every-route@example.com');
    const api = createSocialClient({ baseUrl: rt.url, apiKey: key });
    const sample: Record<string, string> = {
      id: 'x_01ARZ3NDEKTSV4RRFFQ69G5FAV', platform: 'telegram', token: 'tok-does-not-exist-0000', file: 'missing.png',
      delivery_id: '00000000-0000-0000-0000-000000000000',
    };
    const called: string[] = [];
    for (const r of routeList.filter((x) => !x.localOnly)) {
      const pathParams = Object.fromEntries([...r.path.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n, sample[n] ?? 'x']));
      const res = await api.request(r.method.toLowerCase() as 'get', r.path as '/api/me', {
        params: { path: pathParams, query: {} } as never,
        ...(r.body && r.method !== 'GET' ? { body: {} as never } : {}),
        redirect: 'manual', parseAs: 'text',
      } as never);
      const status = res.response.status;
      // an answer the OpenAPI document declares for this route: its own (billing answers its documented 503 when
      // Stripe is not configured) or one the shared middleware chain adds (403 session_required: dashboard routes
      // refuse API keys; 400 unknown_field, 415 for a body of the wrong type)
      const documented = Object.keys(doc.paths[r.path][r.method.toLowerCase()].responses).map(Number);
      expect({ route: r.id, status, declared: documented.includes(status) }).toEqual({ route: r.id, status, declared: true });
      if (r.id === 'post-mcp') {
        // the MCP server speaks JSON-RPC: a refused request is a JSON-RPC error, not the REST {error, code}
        expect(res.error).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
      } else if (r.path.startsWith('/oauth/') && status >= 400) {
        // the MCP authorization server answers OAuth's own error shape (RFC 6749 §5.2, RFC 7591 §3.2.2)
        expect({ route: r.id, error: res.error }).toEqual({ route: r.id, error: expect.objectContaining({ error: expect.any(String) }) });
      } else if (status >= 400 && r.method !== 'HEAD' && (res.response.headers.get('content-type') ?? '').includes('json')) {
        expect({ route: r.id, error: res.error }).toEqual({ route: r.id, error: expect.objectContaining({ code: expect.any(String), error: expect.any(String) }) });
      }
      called.push(r.id);
    }
    expect(called).toHaveLength(routeList.filter((x) => !x.localOnly).length);
  });
});
