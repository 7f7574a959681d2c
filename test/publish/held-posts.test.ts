import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { getPost, listPosts } from '../../shared/app/publish/queries';
import { decideAsOwner, expireApproval } from '../../shared/app/approvals/approvals';
import { activityPage } from '../../shared/app/dashboard/activity';
import { APPROVAL_TTL_SECONDS } from '../../shared/app/approval-hold';
import type { Account } from '../../shared/ports/store';
import type { OffsetClock } from '../support/clock';

/**
 * Every post is findable: a post held for approval is never sent and has no post item, yet GET /api/posts/{id},
 * GET /api/posts and the dashboard's `held` filter show it with its status (pending_approval, rejected, expired).
 */
let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); }, 60_000);
afterAll(async () => { await w?.stop(); });

let seq = 0;
async function hold(account: Account) {
  const res = await publishPost(w.deps, account, validatePost({ platform: 'discord', text: `Held ${++seq}` }, networkLimits()), { source: 'api', wait: true });
  if (!('status' in res)) throw new Error('expected the post to be held');
  return res;
}

describe('held, rejected and expired posts are readable', () => {
  it('GET /api/posts/{id} and GET /api/posts show each with its status, among the sent posts, newest first', async () => {
    const account = await w.discordAccount('pro');
    const sent = await publishPost(w.deps, account, validatePost({ platform: 'discord', text: `Sent ${++seq}` }, networkLimits()), { source: 'api', wait: true });
    await w.deps.approvals.putRule({ account_id: account.id, scope: 'account', always: true, networks: [], updated_at: new Date().toISOString() });
    const pending = await hold(account);
    const rejected = await hold(account);
    const expired = await hold(account);
    const approved = await hold(account);
    await decideAsOwner(w.deps, account, rejected.approval_id, 'reject', 'Off brand');
    await decideAsOwner(w.deps, account, approved.approval_id, 'approve');
    await w.queue.drain();
    (w.clock as OffsetClock).advance(APPROVAL_TTL_SECONDS * 1000 + 1000);
    try {
      await expireApproval(w.deps, expired.approval_id);
    } finally {
      (w.clock as OffsetClock).advance(-(APPROVAL_TTL_SECONDS * 1000 + 1000));
    }

    const one = await getPost(w.deps, account.id, pending.post_id);
    expect(one).toMatchObject({ id: pending.post_id, status: 'pending_approval', approval: { id: pending.approval_id, status: 'pending' }, results: [{ platform: 'discord', ok: true, status: 'pending_approval' }] });
    expect(await getPost(w.deps, account.id, rejected.post_id)).toMatchObject({
      status: 'rejected', approval: { status: 'rejected', note: 'Off brand' }, results: [{ platform: 'discord', ok: false, code: 'approval_rejected' }],
    });
    expect((await getPost(w.deps, account.id, rejected.post_id)).results[0]).toHaveProperty('fix');
    expect(await getPost(w.deps, account.id, expired.post_id)).toMatchObject({ status: 'expired', results: [{ code: 'approval_expired' }] });
    // the approved one was sent: it is an ordinary post, listed once
    expect(await getPost(w.deps, account.id, approved.post_id)).toMatchObject({ results: [{ status: 'published' }] });
    // another account does not see it
    const other = await w.discordAccount('pro');
    await expect(getPost(w.deps, other.id, pending.post_id)).rejects.toMatchObject({ status: 404 });

    const all = await listPosts(w.deps, account.id, 10);
    expect(all.posts.map((p) => p.id)).toEqual([approved.post_id, expired.post_id, rejected.post_id, pending.post_id, sent.post_id]);
    expect(all.posts.map((p) => ('status' in p ? p.status : 'sent'))).toEqual(['sent', 'expired', 'rejected', 'pending_approval', 'sent']);
    expect(all.next_before).toBeNull();

    // pages of two: every post once, in order
    const seen: string[] = [];
    let before: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await listPosts(w.deps, account.id, 2, before);
      seen.push(...page.posts.map((p) => p.id));
      if (!page.next_before) break;
      before = page.next_before;
    }
    expect(seen).toEqual(all.posts.map((p) => p.id));

    // the dashboard's held filter: the three never sent, with their status
    const held = await activityPage(w.deps, account.id, { status: 'held' });
    expect(held.posts.map((p) => [p.id, p.networks[0].status])).toEqual([
      [expired.post_id, 'expired'], [rejected.post_id, 'rejected'], [pending.post_id, 'pending_approval'],
    ]);
    expect((await activityPage(w.deps, account.id, { status: 'held', platform: 'telegram' })).posts).toEqual([]);
  });
});
