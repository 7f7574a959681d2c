import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { manageFlags } from '../../shared/networks/manage-flags';
import { callOver, sampleEvent } from '../support/invoke';
import type { Deps } from '../../shared/app/deps';
import { signup, confirmSignup } from '../../shared/app/signup';
import { handler as getPlatforms } from '../../functions/http/get-platforms';
import { handler as getPlans } from '../../functions/http/get-plans';
import { handler as postSignup } from '../../functions/http/post-signup';
import { handler as getMe } from '../../functions/http/get-me';
import { handler as postKeys } from '../../functions/http/post-keys';
import { handler as deleteKey } from '../../functions/http/delete-key';
import { handler as postBrands } from '../../functions/http/post-brands';
import { handler as getOpenapi } from '../../functions/http/get-openapi';
import { handler as getConfirm } from '../../functions/http/get-signup-confirm';
import { handler as postConfirm } from '../../functions/http/post-signup-confirm';
import { handler as postValidate } from '../../functions/http/post-validate';
import { handler as postPost } from '../../functions/http/post-post';
import { PLATFORMS } from '../../shared/domain/platforms';
import { READ_BACK } from '../../shared/networks/read-back-support';
import { envClients } from '../../shared/adapters/env-oauth-clients';

const call = callOver(() => current);

let table: TestTable;
let stop: () => Promise<void>;
let deps: Deps;
/** The deps the handlers are made over (one test answers others for a moment). */
let current: Deps;
let mailer: ReturnType<typeof testDeps>['mailer'];
let apiKey: string;

beforeAll(async () => {
  ({ table, stop } = await startTestTable());
  ({ deps, mailer } = testDeps(table, {}, { frozenClock: true }));
  current = deps;
  await signup(deps, { email: 'handler@example.com', ip: '192.0.2.50' });
  apiKey = (await confirmSignup(deps, new URL(mailer.sent[0].links[0]).searchParams.get('token')!)).api_key;
});
afterAll(async () => { await stop(); });

const authed = (file: string, extra: Parameters<typeof sampleEvent>[1] = {}) =>
  sampleEvent(file, { ...extra, headers: { authorization: `Bearer ${apiKey}`, ...extra.headers } });

describe('open catalog routes', () => {
  it('GET /api/platforms serves the platform table; an OAuth network without an app registration here is unavailable, with the reason', async () => {
    const res = await call(getPlatforms, sampleEvent('http/get-platforms.json'));
    expect(res.status).toBe(200);
    const served = res.body.platforms as Array<Record<string, unknown>>;
    expect(served.map((p) => p.name)).toEqual(PLATFORMS.map((p) => p.name));
    for (const p of PLATFORMS.filter((x) => !x.oauth)) expect(served.find((x) => x.name === p.name)).toEqual({ ...JSON.parse(JSON.stringify(p)), read_back: READ_BACK[p.name], ...manageFlags(p.name) });
    // whether a post a dead worker may have sent can be looked for on the network, else it stays unknown
    expect(served.find((x) => x.name === 'mastodon')).toMatchObject({ read_back: true });
    expect(served.find((x) => x.name === 'telegram')).toMatchObject({ read_back: false });
    for (const p of served) expect(typeof p.read_back).toBe('boolean');
    // this test server has no LINKEDIN/FACEBOOK/INSTAGRAM/X/TIKTOK/YOUTUBE client id: none of them can be connected here
    for (const name of ['tiktok', 'youtube', 'linkedin', 'facebook', 'instagram', 'x', 'threads', 'pinterest', 'google_business']) {
      expect(served.find((x) => x.name === name)).toMatchObject({ oauth: true, available: false, unavailable_reason: 'not_configured', reason: expect.stringContaining(`${name.toUpperCase()}_CLIENT_ID`) });
    }
    expect(served.find((x) => x.name === 'reddit')).toMatchObject({ available: false, unavailable_reason: 'not_offered' });
  });

  it('GET /api/platforms: an OAuth network with an app registration is available', async () => {
    const saved = { id: process.env.LINKEDIN_CLIENT_ID, secret: process.env.LINKEDIN_CLIENT_SECRET };
    Object.assign(process.env, { LINKEDIN_CLIENT_ID: 'li-client', LINKEDIN_CLIENT_SECRET: 'li-secret' });
    try {
      current = { ...deps, oauth: { ...deps.oauth, clients: envClients(process.env) } };
      const served = (await call(getPlatforms, sampleEvent('http/get-platforms.json'))).body.platforms as Array<Record<string, unknown>>;
      expect(served.find((x) => x.name === 'linkedin')).toMatchObject({ available: true });
      expect(served.find((x) => x.name === 'linkedin')).not.toHaveProperty('reason');
      expect(served.find((x) => x.name === 'facebook')).toMatchObject({ available: false });
    } finally {
      current = deps;
      if (saved.id === undefined) delete process.env.LINKEDIN_CLIENT_ID; else process.env.LINKEDIN_CLIENT_ID = saved.id;
      if (saved.secret === undefined) delete process.env.LINKEDIN_CLIENT_SECRET; else process.env.LINKEDIN_CLIENT_SECRET = saved.secret;
    }
  });

  it('GET /api/plans serves the plan table', async () => {
    const res = await call(getPlans, sampleEvent('http/get-plans.json'));
    expect((res.body.plans as Array<{ name: string }>).map((p) => p.name)).toEqual(['free', 'starter', 'pro', 'agency', 'scale']);
    expect(res.body.yearly_discount_percent).toBe(20);
  });

  it('GET /api/openapi.json documents every route from the route table', async () => {
    const res = await call(getOpenapi, sampleEvent('http/get-platforms.json', { rawPath: '/api/openapi.json' }));
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/keys/{id}'].delete.operationId).toBe('delete-key');
    expect(doc.paths['/api/signup'].post.requestBody).toMatchObject({ content: { 'application/json': { schema: { properties: { email: { format: 'email' } } } } } });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Platform', 'ApiKey', 'Brand', 'Error']));
  });
});

describe('input errors are clear JSON, never a 500', () => {
  it('400 with field-level detail for a body that fails validation', async () => {
    const res = await call(postSignup, sampleEvent('http/post-signup.json', { body: JSON.stringify({ email: 'not-an-email' }) }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The request body is invalid', code: 'invalid_request', issues: [{ path: 'email', message: expect.any(String) }] });
  });

  it('400 invalid_json, 415 for a non-JSON body, 413 for an oversized body', async () => {
    expect((await call(postSignup, sampleEvent('http/post-signup.json', { body: '{"email":' }))).body).toMatchObject({ code: 'invalid_json' });
    const wrongType = await call(postSignup, sampleEvent('http/post-signup.json', { headers: { 'content-type': 'text/plain' } }));
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.code).toBe('unsupported_media_type');
    const big = await call(postSignup, sampleEvent('http/post-signup.json', { body: JSON.stringify({ email: 'a@b.co', pad: 'x'.repeat(1_100_000) }) }));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('too_large');
  });

  it('401 without a key; unknown extra fields are refused (strict schemas)', async () => {
    const noKey = await call(getMe, sampleEvent('http/get-me.json', { headers: { authorization: '' } }));
    expect(noKey.status).toBe(401);
    expect(noKey.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
    const res = await call(postKeys, authed('http/post-keys.json', { body: JSON.stringify({ expires_in_days: 0 }) }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'expires_in_days', message: expect.any(String) }]);
    const extra = await call(postKeys, authed('http/post-keys.json', { body: JSON.stringify({ name: 'x', admin: true }) }));
    expect(extra.status).toBe(400);
  });

  it('an unexpected failure is a generic 500 without the message or a stack', async () => {
    const broken: Deps = { ...deps, brands: { ...deps.brands, list: async () => { throw new Error('secret internal detail at /var/task/x.js:1'); } } };
    current = broken;
    try {
      const res = await call(getMe, authed('http/get-me.json'));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: expect.any(String), code: 'internal_error', request_id: 'Zx1aBcDeFgHiJkL=' });
      expect(res.raw).not.toMatch(/secret internal detail|\.js:\d/);
    } finally {
      current = deps;
    }
  });
});

describe('account routes', () => {
  it('creates a key with an optional empty body and revokes it; an id that does not parse is 404', async () => {
    const created = await call(postKeys, authed('http/post-keys.json', { body: undefined, headers: { 'content-type': '' } }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'API key', expires_at: null, api_key: expect.stringMatching(/^svc_live_/) });
    const id = created.body.id as string;
    const revoked = await call(deleteKey, authed('http/delete-key.json', { pathParameters: { id } }));
    expect(revoked.body).toMatchObject({ id, revoked: true });
    expect((await call(deleteKey, authed('http/delete-key.json', { pathParameters: { id } }))).status).toBe(404);
    expect((await call(deleteKey, authed('http/delete-key.json', { pathParameters: { id: "key_' OR 1=1" } }))).body).toMatchObject({ code: 'not_found' });
  });

  it('brand limit on Free answers 400 brand_limit_reached with an upgrade link', async () => {
    const res = await call(postBrands, authed('http/post-brands.json'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'brand_limit_reached', upgrade_url: 'https://api.test/dashboard/plan?plan=starter' });
  });

  it('opening the emailed link spends nothing (a page with one button); its form post shows the key once, then a 410 page', async () => {
    await signup(deps, { email: 'html@example.com', ip: '192.0.2.51' });
    const token = new URL(mailer.sent.at(-1)!.links[0]).searchParams.get('token')!;
    const ev = sampleEvent('http/get-platforms.json', { rawPath: '/api/signup/confirm', queryStringParameters: { token }, headers: { accept: 'text/html' } });
    for (let i = 0; i < 3; i++) {
      const opened = await call(getConfirm, ev); // a mail scanner following the link, three times
      expect(opened.status).toBe(200);
      expect(opened.headers['content-type']).toMatch(/text\/html/);
      expect(opened.raw).not.toMatch(/svc_live_/);
      expect(opened.raw.match(/<button/g)).toHaveLength(1);
      expect(opened.raw).toContain(`<form method="post" action="/api/signup/confirm"><input type="hidden" name="token" value="${token}">`);
    }
    const form = sampleEvent('http/post-signup.json', { rawPath: '/api/signup/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(token)}` });
    const page = await call(postConfirm, form);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.raw).toMatch(/<code id="api-key">svc_live_[0-9A-Za-z]{40}<\/code>/);
    const again = await call(postConfirm, form);
    expect(again.status).toBe(410);
    expect(again.raw).not.toMatch(/svc_live_/);
  });

  it('per-key request limit by plan: the 61st request in a minute on Free is 429 with Retry-After', async () => {
    const created = await call(postKeys, authed('http/post-keys.json'));
    const key = created.body.api_key as string;
    // one after another (the limit under concurrency: 50 concurrent signups, test/store/accounts.test.ts): the test
    // clock stands still, so all 61 fall in one window however long they take, and none races the simulated Lambda timeout
    const results = [];
    for (let i = 0; i < 61; i++) results.push(await call(getMe, sampleEvent('http/get-me.json', { headers: { authorization: `Bearer ${key}` } })));
    expect(results.slice(0, 60).map((r) => r.status)).toEqual(Array(60).fill(200));
    const limited = results.slice(60);
    expect(limited.map((r) => r.status)).toEqual([429]);
    expect(limited[0].headers['Retry-After']).toMatch(/^\d+$/);
    expect(limited[0].body).toEqual({ error: expect.any(String), code: 'rate_limited', retry_after: Number(limited[0].headers['Retry-After']) });
  });
});

describe('RateLimit headers (IETF draft-ietf-httpapi-ratelimit-headers) for the per-key rate', () => {
  it('every answer of a key carries RateLimit-Policy and RateLimit; the 429 says r=0 and keeps Retry-After', async () => {
    const key = (await call(postKeys, authed('http/post-keys.json'))).body.api_key as string;
    const asKey = (file: string) => sampleEvent(file, { headers: { authorization: `Bearer ${key}` } });
    const first = await call(getMe, asKey('http/get-me.json'));
    expect(first.status).toBe(200);
    expect(first.headers['RateLimit-Policy']).toBe('"key";q=60;w=60');
    const [, reset] = /^"key";r=59;t=(\d+)$/.exec(first.headers.RateLimit) ?? [];
    expect(Number(reset)).toBeGreaterThan(0);
    expect(Number(reset)).toBeLessThanOrEqual(60);
    // an error answer of the route counts, and says so (404: no such key)
    const missing = await call(deleteKey, sampleEvent('http/delete-key.json', { headers: { authorization: `Bearer ${key}` }, pathParameters: { id: 'key_00000000000000000000000000' } }));
    expect(missing.status).toBe(404);
    expect(missing.headers.RateLimit).toMatch(/^"key";r=58;t=\d+$/);
    for (let i = 0; i < 58; i++) await call(getMe, asKey('http/get-me.json'));
    const limited = await call(getMe, asKey('http/get-me.json'));
    expect(limited.status).toBe(429);
    expect(limited.headers['RateLimit-Policy']).toBe('"key";q=60;w=60');
    expect(limited.headers.RateLimit).toBe(`"key";r=0;t=${limited.headers['Retry-After']}`);
  });

  it('a route with its own limit names both policies; POST /api/validate counts against the key\'s rate', async () => {
    const key = (await call(postKeys, authed('http/post-keys.json'))).body.api_key as string;
    const res = await call(postValidate, sampleEvent('http/post-validate.json', { headers: { authorization: `Bearer ${key}` } }));
    expect(res.headers['RateLimit-Policy']).toBe('"key";q=60;w=60');
    expect(res.headers.RateLimit).toMatch(/^"key";r=59;t=\d+$/);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, media_checked: false, pending_approval: false, results: [{ platform: 'telegram', code: 'not_connected' }] });
    const post = await call(postPost, sampleEvent('http/post-validate.json', { headers: { authorization: `Bearer ${key}` }, body: JSON.stringify({ platform: 'telegram', text: 'Launch day' }) }));
    expect(post.status).toBe(200);
    expect(post.headers['RateLimit-Policy']).toBe('"key";q=60;w=60, "post-post";q=60;w=60');
    expect(post.headers.RateLimit).toMatch(/^"key";r=58;t=\d+, "post-post";r=59;t=\d+$/);
  });
});
