import { signInAtNetwork } from '../support/oauth-browser';
import { oauthWorld } from '../support/oauth';
import { callOver, sampleEvent } from '../support/invoke';
import { startOAuth, completeOAuth } from '../../shared/app/oauth/flow';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost, type PostRequest } from '../../shared/app/publish/request';
import { xCreditCost, xAddon } from '../../shared/app/publish/x-credits';
import { createApiKey } from '../../shared/app/api-keys';
import { nextMonthStart, usageKeys } from '../../shared/domain/usage';
import { handler as getX } from '../../functions/http/get-x';
import type { Account } from '../../shared/ports/store';

const call = callOver(() => w.deps);

let w: Awaited<ReturnType<typeof oauthWorld>>;
beforeAll(async () => { w = await oauthWorld([{ name: 'x', pkce: true }]); });
afterAll(async () => { await w.stop(); });
beforeEach(() => { w.fake.reset(); w.telegram.reset(); });

async function withX(plan: Parameters<typeof w.newAccount>[0]): Promise<Account> {
  const acc = await w.newAccount(plan);
  const { url } = await startOAuth(w.deps, acc, 'x', {});
  const { query, nonce } = await signInAtNetwork(w.deps, url);
  expect(await completeOAuth(w.deps, 'x', query, nonce)).toMatchObject({ kind: 'connected', platform: 'x' });
  return acc;
}
/** Publishes and lets the worker finish its bookkeeping (reservations are given back right after the result is settled). */
async function post(acc: Account, req: Omit<PostRequest, 'platform'> & { platforms?: string[] }) {
  const res = await publishPost(w.deps, acc, validatePost({ ...(req.platforms ? {} : { platform: 'x' }), ...req }), { source: 'api', wait: true });
  await w.queue.drain();
  return res;
}
const credits = (acc: Account) => w.deps.counters.get(usageKeys.xCredits(acc.id, w.clock.now()));
const posts = (acc: Account) => w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()));
const img = (n: number) => `${w.fake.url}/media/img${n}.png`;

describe('X credits', () => {
  it('pricing: 1 a post, 10 with a link, +1 per image or video; thread posts and the first comment are posts too', () => {
    const c = (text: string, extra: Partial<Parameters<typeof xCreditCost>[0]> = {}) => xCreditCost({ text, thread: [], media: [], ...extra });
    expect(c('hello')).toBe(1);
    expect(c('read https://example.com/a')).toBe(10);
    expect(c('read www.example.com')).toBe(10);
    expect(c('Node.js and e.g. example dot com')).toBe(1);
    expect(c('pics', { media: [{ url: 'a', kind: 'image' }, { url: 'b', kind: 'video' }] })).toBe(3);
    expect(c('https://a.example', { media: [{ url: 'a', kind: 'image' }] })).toBe(11);
    expect(c('one', { thread: ['two', 'three http://b.example'], first_comment: 'thanks' })).toBe(1 + 1 + 10 + 1);
  });

  it('Free plan: X is refused per network with plan_feature and upgrade_url, spends nothing and takes no Free place', async () => {
    const acc = await withX('free');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    const res = await post(acc, { platforms: ['x', 'telegram', 'discord'], text: 'free plan' });
    expect(res.results[0]).toMatchObject({ platform: 'x', ok: false, code: 'plan_feature', upgrade_url: 'https://api.test/dashboard/plan?plan=starter', what: expect.any(String), fix: expect.any(String) });
    expect(res.results.slice(1).map((r) => [r.platform, r.ok, r.status])).toEqual([['telegram', true, 'published'], ['discord', true, 'published']]);
    expect(w.fake.postCalls).toHaveLength(0);
    expect(await credits(acc)).toBe(0);
    expect(await posts(acc)).toBe(2);
  });

  it('reserves the priced credits before sending; GET /api/x shows rules, credits, used, left and the reset date', async () => {
    const acc = await withX('starter');
    const res = await post(acc, { text: 'launch https://example.com', media: [{ url: img(1) }] });
    expect(res.results[0]).toMatchObject({ ok: true, status: 'published' });
    expect(await credits(acc)).toBe(11);
    expect(await xAddon(w.deps, acc)).toMatchObject({ platform: 'x', credits: 100, used: 11, left: 89, resets_at: nextMonthStart(w.clock.now()).toISOString(), available: true });

    const { api_key } = await createApiKey(w.deps, acc.id, { name: 'x' });
    const res2 = await call(getX, sampleEvent('http/get-me.json', { rawPath: '/api/x', headers: { authorization: `Bearer ${api_key}` } }));
    expect(res2.status).toBe(200);
    expect(res2.body).toMatchObject({
      kind: 'x_credits', paid_plans_only: true, plan: 'starter', credits: 100, used: 11, left: 89,
      rules: { post: 1, post_with_link: 10, per_media: 1, text: expect.stringContaining('10 credits') },
    });
  });

  it('gives the credits back when the post fails', async () => {
    const acc = await withX('starter');
    w.fake.revoke();
    const res = await post(acc, { text: 'will fail https://example.com' });
    expect(res.results[0]).toMatchObject({ ok: false, code: 'reauth_required' });
    expect(await credits(acc)).toBe(0);
    expect(await posts(acc)).toBe(0);
  });

  it('out of credits: x_credits_exhausted with upgrade_url, the post reservation goes back; a cheaper post still fits', async () => {
    const acc = await withX('starter');
    await w.deps.counters.increment(usageKeys.xCredits(acc.id, w.clock.now()), 95, 100, Math.floor(Date.now() / 1000) + 86_400 * 60);
    const res = await post(acc, { text: 'with a link https://example.com' });
    expect(res.results[0]).toMatchObject({ ok: false, code: 'x_credits_exhausted', upgrade_url: expect.stringContaining('/dashboard/plan?plan=pro'), error: expect.stringContaining('needs 10 X credits; 5 of') });
    expect(w.fake.postCalls).toHaveLength(0);
    expect(await credits(acc)).toBe(95);
    expect(await posts(acc)).toBe(0);
    expect((await post(acc, { text: 'no link' })).results[0]).toMatchObject({ ok: true });
    expect(await credits(acc)).toBe(96);
    expect((await xAddon(w.deps, acc)).left).toBe(4);
  });

  it('concurrent posts never spend past the plan: with 10 credits left, two of five 5-credit posts go out', async () => {
    const acc = await withX('starter');
    await w.deps.counters.increment(usageKeys.xCredits(acc.id, w.clock.now()), 90, 100, Math.floor(Date.now() / 1000) + 86_400 * 60);
    const four = [1, 2, 3, 4].map((n) => ({ url: img(n) }));
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => post(acc, { text: `post ${n}`, media: four })));
    const codes = results.map((r) => r.results[0].ok ? 'ok' : r.results[0].code).sort();
    expect(codes).toEqual(['ok', 'ok', 'x_credits_exhausted', 'x_credits_exhausted', 'x_credits_exhausted']);
    expect(await credits(acc)).toBe(100);
    expect(w.fake.postCalls).toHaveLength(2);
  });
});
