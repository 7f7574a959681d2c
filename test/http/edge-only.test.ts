/**
 * Behind the edge stack (-c waf=true), a request sent straight to the execute-api endpoint — without the secret
 * origin header CloudFront adds — is refused before anything else runs, so the WAF cannot be bypassed.
 */
import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { callOver, sampleEvent } from '../support/invoke';
import type { Deps } from '../../shared/app/deps';
import { resetConfig } from '../../shared/config';
import { handler as getPlatforms } from '../../functions/http/get-platforms';

const call = callOver(() => deps);

let deps: Deps;
const SECRET = 'e'.repeat(40);
let table: TestTable;
let stop: () => Promise<void>;
const saved = process.env.EDGE_ORIGIN_SECRET;

beforeAll(async () => {
  ({ table, stop } = await startTestTable());
  deps = testDeps(table, {}, { frozenClock: true }).deps;
});
afterAll(async () => { await stop(); });
afterEach(() => { if (saved === undefined) delete process.env.EDGE_ORIGIN_SECRET; else process.env.EDGE_ORIGIN_SECRET = saved; resetConfig(); });

const withEdge = () => { process.env.EDGE_ORIGIN_SECRET = SECRET; resetConfig(); };

test('with the edge configured, a request without the secret origin header gets 403 forbidden, saying where to go', async () => {
  withEdge();
  const res = await call(getPlatforms, sampleEvent('http/get-platforms.json'));
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ code: 'forbidden', error: expect.stringContaining('public address') });
});

test('with the edge configured, a wrong secret is refused too', async () => {
  withEdge();
  const res = await call(getPlatforms, sampleEvent('http/get-platforms.json', { headers: { 'x-origin-verify': 'e'.repeat(39) + 'f' } }));
  expect(res.status).toBe(403);
});

test('with the edge configured, a request that came through CloudFront is served', async () => {
  withEdge();
  const res = await call(getPlatforms, sampleEvent('http/get-platforms.json', { headers: { 'x-origin-verify': SECRET } }));
  expect(res.status).toBe(200);
});

test('without the edge, nothing changes', async () => {
  delete process.env.EDGE_ORIGIN_SECRET; resetConfig();
  const res = await call(getPlatforms, sampleEvent('http/get-platforms.json'));
  expect(res.status).toBe(200);
});
