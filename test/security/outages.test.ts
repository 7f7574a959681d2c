import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { callOver, sampleEvent } from '../support/invoke';
import { testDeps } from '../support/deps';
import { ensureTable, startDynamo, type Service } from '../../infra/local/services';
import { signup, confirmSignup } from '../../shared/app/signup';
import { isOutage } from '../../shared/http/outage';
import { handler as getMe } from '../../functions/http/get-me';
import { handler as postSignup } from '../../functions/http/post-signup';
import { handler as getWebhooks } from '../../functions/http/get-webhooks';
import { handler as postBrands } from '../../functions/http/post-brands';
import { handler as getBrands } from '../../functions/http/get-brands';
import type { Deps } from '../../shared/app/deps';

const call = callOver(() => deps);

/** The embedded DynamoDB on disk, so it can be stopped mid-run and started again on the same port with its data. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-outage-'));
let engine: Service;
let port = 0;
let deps: Deps;
let key: string;
const tableName = 'outage-test';

async function startEngine() {
  engine = await startDynamo(dir, port);
  port = Number(new URL(engine.endpoint).port);
}
const stopEngine = () => engine.stop();

beforeAll(async () => {
  await startEngine();
  await ensureTable(engine.endpoint, tableName);
  // one attempt per call: the SDK's retries would only slow the refused calls down
  process.env.AWS_MAX_ATTEMPTS = '1';
  deps = testDeps({ tableName, endpoint: engine.endpoint }).deps;
  const t = testDeps({ tableName, endpoint: engine.endpoint });
  await signup(t.deps, { email: 'outage@example.com', ip: '198.51.100.7' });
  const link = t.mailer.sent.at(-1)!.links[0];
  key = (await confirmSignup(t.deps, new URL(link).searchParams.get('token')!)).api_key;
});
afterAll(async () => { delete process.env.AWS_MAX_ATTEMPTS; await stopEngine().catch(() => undefined); });

let ip = 0;
const ev = (method: string, p: string, o: { body?: unknown; auth?: boolean } = {}): APIGatewayProxyEventV2 => {
  const base = sampleEvent('http/get-platforms.json');
  return {
    ...base, rawPath: p, routeKey: `${method} ${p}`, body: o.body === undefined ? undefined : JSON.stringify(o.body),
    headers: { ...base.headers, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(o.auth === false ? {} : { authorization: `Bearer ${key}` }) },
    requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method, path: p, sourceIp: `198.51.100.${++ip % 250}` } },
  };
};
const expect503 = (res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, code: string) => {
  expect(res.status).toBe(503);
  expect(res.headers['Retry-After'] ?? res.headers['retry-after']).toMatch(/^\d+$/);
  expect(res.body).toMatchObject({ code, retry_after: expect.any(Number) });
  expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
};

describe('outages of a backing service answer 503 with Retry-After, never 500', () => {
  it('table down before the request: the auth path is auth_unavailable, an open route service_unavailable', async () => {
    expect((await call(getMe, ev('GET', '/api/me'))).status).toBe(200);
    await stopEngine();
    try {
      expect503(await call(getMe, ev('GET', '/api/me')), 'auth_unavailable');
      expect503(await call(postSignup, ev('POST', '/api/signup', { body: { email: 'new@example.com' }, auth: false })), 'service_unavailable');
    } finally {
      await startEngine();
    }
    expect((await call(getMe, ev('GET', '/api/me'))).status).toBe(200);
  });

  it('table stopped mid-run (after auth): webhook routes answer webhooks_unavailable, others service_unavailable, nothing half-written', async () => {
    const before = (await call(getBrands, ev('GET', '/api/brands'))).body.brands as unknown[];
    const realList = deps.webhooks.list.bind(deps.webhooks);
    const realReserve = deps.accounts.reserveBrand.bind(deps.accounts);
    deps.webhooks.list = async (...a) => { await stopEngine(); return realList(...a); };
    deps.accounts.reserveBrand = async (...a) => { await stopEngine(); return realReserve(...a); };
    try {
      expect503(await call(getWebhooks, ev('GET', '/api/webhooks')), 'webhooks_unavailable');
      await startEngine();
      expect503(await call(postBrands, ev('POST', '/api/brands', { body: { name: 'Half' } })), 'service_unavailable');
    } finally {
      deps.webhooks.list = realList;
      deps.accounts.reserveBrand = realReserve;
      await startEngine().catch(() => undefined);
    }
    const after = await call(getBrands, ev('GET', '/api/brands'));
    expect(after.body.brands).toEqual(before);
    const me = await call(getMe, ev('GET', '/api/me'));
    expect((me.body.brands as unknown[]).length).toBe(before.length);
  });

  it('recognises throttling and unreachable services of every AWS client, and nothing else', () => {
    const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });
    for (const e of [
      named('ProvisionedThroughputExceededException'), named('ThrottlingException'), named('KMSInternalException'), named('KeyUnavailableException'),
      named('RequestThrottled'), named('SlowDown'), named('InternalServerError'), named('Whatever', { $metadata: { httpStatusCode: 503 } }),
      named('Whatever', { $retryable: { throttling: true } }), Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      new Error('wrapped', { cause: Object.assign(new Error('socket'), { code: 'ECONNRESET' }) }), named('TimeoutError'),
      new Error('AWS SDK error wrapper for Error: connect ECONNREFUSED 127.0.0.1:4566'),
    ]) expect([e.name, isOutage(e)]).toEqual([e.name, true]);
    for (const e of [new Error('bug'), new TypeError('x is undefined'), named('ValidationException', { $metadata: { httpStatusCode: 400 } }), named('ConditionalCheckFailedException'), undefined, 'text']) {
      expect(isOutage(e)).toBe(false);
    }
  });
});
