import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost, type PostRequest } from '../../shared/app/publish/request';
import { getPost } from '../../shared/app/publish/queries';
import { dispatch } from '../../shared/app/timers/route-timer';
import { setGuardrails } from '../../shared/app/guardrails/guardrails';
import { createApiKey } from '../../shared/app/api-keys';
import {
  APPROVAL_TTL_SECONDS, createClientLink, decideAsOwner, decideWithLink, expiryTimerName, getApproval, openReviewLink, setApprovalRule,
} from '../../shared/app/approvals/approvals';
import { AppError } from '../../shared/domain/errors';
import { createSchedule } from '../../shared/app/schedule/create';
import { getSchedule } from '../../shared/app/schedule/manage';
import type { Account } from '../../shared/ports/store';
import type { Actor } from '../../shared/app/auth';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.telegram.reset(); w.discord.reset(); });

const post = async (account: Account, req: PostRequest, actor?: Actor) => {
  const res = await publishPost(w.deps, account, validatePost(req, networkLimits()), { source: 'api', wait: true, actor });
  await w.queue.drain();
  return res;
};

async function heldAccount(plan: 'pro' | 'starter' = 'pro') {
  const acc = await w.newAccount(plan);
  await w.connectTelegram(w.deps, acc);
  await setApprovalRule(w.deps, acc, { scope: 'account', always: true, networks: [] });
  return acc;
}

const reviewToken = (to: string) => new URL(w.mailer.sent.filter((m) => m.to === to).at(-1)!.links[0]).pathname.split('/').pop()!;
const eventsOf = (postId: string) => w.deps.events.listForPost(postId);

describe('approvals (embedded DynamoDB)', () => {
  it('a held post answers pending_approval for every network, sends and spends nothing, emails the owner and records approval.requested', async () => {
    const acc = await heldAccount();
    const key = await createApiKey(w.deps, acc.id, { name: 'bot' });
    const res = await post(acc, { platform: 'telegram', text: 'needs a look', idempotency_key: 'held-1' }, { kind: 'key', id: key.id });
    expect(res).toMatchObject({ status: 'pending_approval', approval_id: expect.stringMatching(/^apr_/), post_id: expect.stringMatching(/^pst_/), results: [{ platform: 'telegram', ok: true, status: 'pending_approval' }] });
    if (!('status' in res)) throw new Error('not held');
    expect(w.telegramSends()).toBe(0);
    expect(w.scheduler.scheduled.get(expiryTimerName(res.approval_id))).toMatchObject({ input: { kind: 'approval-expiry', approval_id: res.approval_id } });
    const mail = w.mailer.sent.filter((m) => m.to === acc.email).at(-1)!;
    expect(mail.subject).toContain('waiting for your approval');
    expect(mail.links[0]).toMatch(/^https:\/\/api\.test\/review\/[A-Za-z0-9_-]{43}$/);
    const [requested] = await eventsOf(res.post_id);
    expect(requested).toMatchObject({ type: 'approval.requested', data: { approval_id: res.approval_id, post_id: res.post_id, networks: ['telegram'], text_preview: 'needs a look', requested_by: key.prefix, review_url: `https://api.test/dashboard/approvals#${res.approval_id}`, expires_at: expect.any(String) } });
    // the idempotency lock is kept while it waits
    await expect(post(acc, { platform: 'telegram', text: 'again', idempotency_key: 'held-1' })).rejects.toMatchObject({ status: 409, code: 'duplicate_post' });
  });

  it('50 concurrent deciders (owner approve, client reject, expiry): exactly one decision wins and the post is sent at most once', async () => {
    const acc = await heldAccount();
    const res = await post(acc, { platform: 'telegram', text: 'race me' });
    if (!('status' in res)) throw new Error('not held');
    const { url } = await createClientLink(w.deps, acc, res.approval_id);
    const clientToken = url.split('/').pop()!;
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) =>
      i === 0 ? decideWithLink(w.deps, clientToken, 'reject', 'no')
        : i === 1 ? dispatch(w.deps, { kind: 'approval-expiry', approval_id: res.approval_id }).then(() => undefined)
          : decideAsOwner(w.deps, acc, res.approval_id, i % 2 ? 'approve' : 'reject')));
    await w.queue.drain();
    const decisions = outcomes.filter((o) => o.status === 'fulfilled' && o.value);
    expect(decisions).toHaveLength(1);
    const losers = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as AppError);
    expect(losers.every((e) => e.status === 409 || e.status === 410)).toBe(true);
    const final = await getApproval(w.deps, acc.id, res.approval_id);
    expect(['approved', 'rejected']).toContain(final.status);
    const decided = (await eventsOf(res.post_id)).filter((e) => e.type === 'approval.decided');
    expect(decided).toHaveLength(1);
    expect(w.telegramSends()).toBe(final.status === 'approved' ? 1 : 0);
  });

  it('approve publishes once through the publish path with the same post id, source and idempotency key; post.published follows', async () => {
    const acc = await heldAccount();
    const res = await post(acc, { platform: 'telegram', text: 'approve me', idempotency_key: 'order-7' });
    if (!('status' in res)) throw new Error('not held');
    const decided = await decideAsOwner(w.deps, acc, res.approval_id, 'approve', 'looks good');
    await w.queue.drain();
    expect(decided).toMatchObject({ status: 'approved', decided_by: 'owner', note: 'looks good' });
    expect(w.telegramSends()).toBe(1);
    const stored = await getPost(w.deps, acc.id, res.post_id);
    expect(stored).toMatchObject({ id: res.post_id, source: 'api', idempotency_key: 'order-7', results: [{ platform: 'telegram', ok: true, status: 'published' }] });
    expect(stored.events.map((e) => e.type).sort()).toEqual(['approval.decided', 'approval.requested', 'post.published']);
    expect(stored.events.find((e) => e.type === 'approval.decided')!.data).toEqual({ approval_id: res.approval_id, decision: 'approved', decided_by: 'owner', note: 'looks good', post_id: res.post_id, brand_id: res.brand_id, brand: { id: res.brand_id, name: 'Default' } });
    await expect(decideAsOwner(w.deps, acc, res.approval_id, 'reject')).rejects.toMatchObject({ status: 409, code: 'approval_decided' });
    await expect(post(acc, { platform: 'telegram', text: 'approve me again', idempotency_key: 'order-7' })).rejects.toMatchObject({ code: 'duplicate_post' });
  });

  it('reject sends nothing and releases the idempotency lock; the emailed link then shows 410', async () => {
    const acc = await heldAccount();
    const res = await post(acc, { platform: 'telegram', text: 'reject me', idempotency_key: 'order-8' });
    if (!('status' in res)) throw new Error('not held');
    const token = reviewToken(acc.email);
    expect((await openReviewLink(w.deps, token)).role).toBe('owner');
    await decideAsOwner(w.deps, acc, res.approval_id, 'reject', 'off-brand');
    await w.queue.drain();
    expect(w.telegramSends()).toBe(0);
    await expect(openReviewLink(w.deps, token)).rejects.toMatchObject({ status: 410 });
    const again = await post(acc, { platform: 'telegram', text: 'reject me', idempotency_key: 'order-8' });
    expect(again).toMatchObject({ status: 'pending_approval' });
  });

  it('the emailed link decides once; a second use is 410 and a tampered token 404', async () => {
    const acc = await heldAccount();
    const res = await post(acc, { platform: 'telegram', text: 'by email' });
    if (!('status' in res)) throw new Error('not held');
    const token = reviewToken(acc.email);
    expect(await decideWithLink(w.deps, token, 'approve')).toMatchObject({ status: 'approved', decided_by: 'owner' });
    await w.queue.drain();
    expect(w.telegramSends()).toBe(1);
    await expect(decideWithLink(w.deps, token, 'reject')).rejects.toMatchObject({ status: 410 });
    await expect(openReviewLink(w.deps, `${token.slice(0, -2)}xx`)).rejects.toMatchObject({ status: 404 });
  });

  it('no decision in 7 days: the expiry alarm (through the dispatcher, with the test clock) expires it; nothing is sent', async () => {
    const acc = await heldAccount();
    const res = await post(acc, { platform: 'telegram', text: 'forgotten', idempotency_key: 'order-9' });
    if (!('status' in res)) throw new Error('not held');
    await dispatch(w.deps, { kind: 'approval-expiry', approval_id: res.approval_id });
    expect((await getApproval(w.deps, acc.id, res.approval_id)).status).toBe('pending');
    w.clock.advance(APPROVAL_TTL_SECONDS * 1000);
    await expect(decideAsOwner(w.deps, acc, res.approval_id, 'approve')).rejects.toMatchObject({ status: 409 });
    await dispatch(w.deps, { kind: 'approval-expiry', approval_id: res.approval_id });
    expect(await getApproval(w.deps, acc.id, res.approval_id)).toMatchObject({ status: 'expired', decided_by: 'expiry' });
    expect(w.telegramSends()).toBe(0);
    const decided = (await eventsOf(res.post_id)).find((e) => e.type === 'approval.decided')!;
    expect(decided.data).toMatchObject({ decision: 'expired', decided_by: 'expiry', note: null });
    w.clock.advance(-APPROVAL_TTL_SECONDS * 1000);
  });

  it('rules: per brand and per network; keys flagged always_require_approval; Free cannot set rules; the client link is Pro and above', async () => {
    const acc = await w.newAccount('starter');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    await setApprovalRule(w.deps, acc, { scope: 'account', always: false, networks: ['discord'] });
    expect('status' in await post(acc, { platform: 'telegram', text: 'tg only' })).toBe(false);
    const held = await post(acc, { platforms: ['telegram', 'discord'], text: 'with discord' });
    expect(held).toMatchObject({ status: 'pending_approval' });
    if (!('status' in held)) throw new Error('not held');
    await expect(createClientLink(w.deps, acc, held.approval_id)).rejects.toMatchObject({ status: 402, code: 'plan_feature', details: { plan: 'pro' } });
    const key = await createApiKey(w.deps, acc.id, { name: 'flagged' });
    await setGuardrails(w.deps, acc, { kind: 'key', id: key.id }, { always_require_approval: true });
    expect(await post(acc, { platform: 'telegram', text: 'flagged key' }, { kind: 'key', id: key.id })).toMatchObject({ status: 'pending_approval' });
    const free = await w.newAccount('free');
    await expect(setApprovalRule(w.deps, free, { scope: 'account', always: true, networks: [] })).rejects.toMatchObject({ status: 402, details: { plan: 'starter' } });
  });

  it('a scheduled post is held when it fires (same path); approved it publishes under the run, rejected the run fails with approval_rejected', async () => {
    const acc = await heldAccount();
    const runAt = () => new Date(Math.ceil((w.clock.now() + 3_600_000) / 1000) * 1000).toISOString();
    const a = await createSchedule(w.deps, acc, { platform: 'telegram', text: 'scheduled, then approved', run_at: runAt() } as never);
    const b = await createSchedule(w.deps, acc, { platform: 'telegram', text: 'scheduled, then rejected', run_at: runAt() } as never);
    w.clock.advance(3_600_000 + 2_000);
    await dispatch(w.deps, { kind: 'scheduled', schedule_id: a.schedule_id });
    await dispatch(w.deps, { kind: 'scheduled', schedule_id: b.schedule_id });
    expect(w.telegramSends()).toBe(0);
    const pending = await w.deps.approvals.list(acc.id, { status: 'pending', limit: 10 });
    const heldA = pending.find((x) => x.post.payload.text === 'scheduled, then approved')!;
    const heldB = pending.find((x) => x.post.payload.text === 'scheduled, then rejected')!;
    expect(heldA).toMatchObject({ source: 'schedule', schedule_id: a.schedule_id });
    await decideAsOwner(w.deps, acc, heldA.id, 'approve');
    await decideAsOwner(w.deps, acc, heldB.id, 'reject');
    await w.queue.drain();
    expect(w.telegramSends()).toBe(1);
    expect(await getSchedule(w.deps, acc.id, a.schedule_id)).toMatchObject({ status: 'published', post_id: heldA.post_id });
    expect(await getSchedule(w.deps, acc.id, b.schedule_id)).toMatchObject({ status: 'failed', code: 'approval_rejected' });
    w.clock.advance(-(3_600_000 + 2_000));
  });
});
