import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { getPost } from '../../shared/app/publish/queries';
import { validatePost, type PostRequest } from '../../shared/app/publish/request';
import { setGuardrails } from '../../shared/app/guardrails/guardrails';
import { actorCapKey } from '../../shared/app/guardrails/enforce';
import { createApiKey } from '../../shared/app/api-keys';
import { createSchedule } from '../../shared/app/schedule/create';
import { me } from '../../shared/app/usage';
import { AppError } from '../../shared/domain/errors';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { Account } from '../../shared/ports/store';
import type { Actor } from '../../shared/app/auth';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.telegram.reset(); w.discord.reset(); });

const post = async (account: Account, actor: Actor, req: PostRequest) => {
  const res = await publishPost(w.deps, account, validatePost(req, networkLimits()), { source: 'api', wait: true, actor });
  await w.queue.drain();
  return res;
};

async function keyed(plan: 'pro' | 'free' = 'pro') {
  const acc = await w.newAccount(plan);
  const key = await createApiKey(w.deps, acc.id, { name: 'bot' });
  return { acc, actor: { kind: 'key' as const, id: key.id } };
}

describe('guardrails (embedded DynamoDB)', () => {
  it('20 concurrent posts against a cap of 5: exactly 5 publish, 15 answer 403 key_monthly_cap_reached; the cap is never exceeded', async () => {
    const { acc, actor } = await keyed();
    await w.connectDiscord(w.deps, acc); // no pacing between posts: nothing here waits on the clock
    await setGuardrails(w.deps, acc, actor, { monthly_post_cap: 5 });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => post(acc, actor, { platform: 'discord', text: `post ${i}` })));
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as AppError);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused.every((e) => e.status === 403 && e.code === 'key_monthly_cap_reached')).toBe(true);
    // five published, never a sixth: read once every delivery has finished (post() drains the queue)
    const ids = ok.map((o) => (o as PromiseFulfilledResult<Awaited<ReturnType<typeof post>>>).value.post_id);
    const results = (await Promise.all(ids.map((id) => getPost(w.deps, acc.id, id)))).map((p) => p.results[0]);
    expect(results.map((r) => [r.ok, r.status])).toEqual(Array(5).fill([true, 'published']));
    expect(w.discord.requests.filter((r) => r.method === 'POST')).toHaveLength(5);
    expect(await w.deps.counters.get(actorCapKey(acc.id, actor, w.clock.now()))).toBe(5);
    // another key of the same account is not capped
    const other = await createApiKey(w.deps, acc.id, { name: 'other' });
    expect((await post(acc, { kind: 'key', id: other.id }, { platform: 'discord', text: 'other key' })).results[0].ok).toBe(true);
  });

  it('the cap counts per published network, and a network that fails gives its place back', async () => {
    const { acc, actor } = await keyed();
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    await setGuardrails(w.deps, acc, actor, { monthly_post_cap: 3 });
    w.telegram.failNext(TelegramFake.error(400, "Bad Request: can't parse entities"));
    const first = await post(acc, actor, { platforms: ['telegram', 'discord'], text: 'two networks' });
    expect(first.results.map((r) => r.ok)).toEqual([false, true]);
    expect(await w.deps.counters.get(actorCapKey(acc.id, actor, w.clock.now()))).toBe(1);
    await post(acc, actor, { platforms: ['telegram', 'discord'], text: 'two more' });
    await expect(post(acc, actor, { platform: 'telegram', text: 'one too many' })).rejects.toMatchObject({ status: 403, code: 'key_monthly_cap_reached' });
  });

  it('a network outside allowed_platforms fails with platform_not_allowed and the others go on; nothing is spent for it', async () => {
    const { acc, actor } = await keyed();
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    await setGuardrails(w.deps, acc, actor, { allowed_platforms: ['discord'] });
    const res = await post(acc, actor, { platforms: ['telegram', 'discord'], text: 'only discord' });
    expect(res.results[0]).toMatchObject({ platform: 'telegram', ok: false, code: 'platform_not_allowed', what: expect.any(String), fix: expect.any(String) });
    expect(res.results[1]).toMatchObject({ platform: 'discord', ok: true });
    expect(w.telegramSends()).toBe(0);
  });

  it('a brand outside allowed_brands refuses the whole request (403 brand_not_allowed), also when scheduling', async () => {
    const { acc, actor } = await keyed();
    const defaultBrand = (await me(w.deps, acc, actor.id)).brands[0].id;
    const other = await w.createBrand(w.deps, acc, 'Client B');
    await w.connectTelegram(w.deps, acc, defaultBrand);
    await w.connectTelegram(w.deps, acc, other.id);
    await setGuardrails(w.deps, acc, actor, { allowed_brands: [defaultBrand] });
    await expect(post(acc, actor, { platform: 'telegram', text: 'to B', brand_id: other.id })).rejects.toMatchObject({ status: 403, code: 'brand_not_allowed' });
    await expect(createSchedule(w.deps, acc, { platform: 'telegram', text: 'later to B', brand_id: other.id, run_at: new Date(w.clock.now() + 3600_000).toISOString() } as never, actor))
      .rejects.toMatchObject({ status: 403, code: 'brand_not_allowed' });
    expect((await post(acc, actor, { platform: 'telegram', text: 'to default', brand_id: defaultBrand })).results[0].ok).toBe(true);
    expect(w.telegramSends()).toBe(1);
    const shown = await me(w.deps, acc, actor.id);
    expect(shown.guardrails).toMatchObject({ kind: 'key', id: actor.id, allowed_brands: [defaultBrand], monthly_post_cap: null, used_this_month: 0 });
  });

  it('setting guardrails: Free is 402 naming starter; unknown key 404; an app id is 404 until the MCP registry knows it; unknown brand 404', async () => {
    const free = await keyed('free');
    await expect(setGuardrails(w.deps, free.acc, free.actor, { monthly_post_cap: 1 })).rejects.toMatchObject({ status: 402, code: 'plan_feature', details: { plan: 'starter' } });
    const { acc } = await keyed();
    await expect(setGuardrails(w.deps, acc, { kind: 'key', id: 'key_nope' }, {})).rejects.toMatchObject({ status: 404, code: 'key_not_found' });
    await expect(setGuardrails(w.deps, acc, { kind: 'app', id: 'app_1' }, {})).rejects.toMatchObject({ status: 404, code: 'app_not_found' });
    const withApps: typeof w.deps = Object.create(w.deps, { apps: { value: { exists: async (a: string, id: string) => a === acc.id && id === 'app_1' } } });
    expect((await setGuardrails(withApps, acc, { kind: 'app', id: 'app_1' }, { always_require_approval: true })).guardrails).toMatchObject({ kind: 'app', id: 'app_1', always_require_approval: true });
    const { actor } = await keyed();
    await expect(setGuardrails(w.deps, acc, actor, {})).rejects.toMatchObject({ status: 404 });
  });
});
