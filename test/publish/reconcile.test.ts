import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { sendToNetwork, STALE_CLAIM_MS } from '../../shared/app/publish/send-to-network';
import { sweepPublishing } from '../../shared/app/publish/reconcile';
import { getPost } from '../../shared/app/publish/queries';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { createWebhook } from '../../shared/app/webhooks/endpoints';
import { createTelegramAdapter } from '../../shared/networks/telegram';
import type { NetworkAdapter, ReadBackOutcome, ReadBackQuery } from '../../shared/ports/networks';
import type { PublishMessage } from '../../shared/app/publish/publish-message';
import type { Account } from '../../shared/ports/store';
import type { EventFanOut } from '../../shared/ports/publishing';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { connect } from '../../shared/app/connections';
import { contentFor } from '../../shared/app/publish/content';
import { networkContext } from '../../shared/app/network-context';
import { usageKeys } from '../../shared/domain/usage';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());

/** The Telegram adapter with a read-back whose answer the test sets (the real ones come with each network). */
function readBackTelegram(answer: (q: ReadBackQuery) => ReadBackOutcome | Promise<ReadBackOutcome>) {
  const base = createTelegramAdapter({ apiBase: w.telegram.url });
  const queries: ReadBackQuery[] = [];
  const adapter: NetworkAdapter = Object.assign(Object.create(base) as NetworkAdapter, {
    readBack: async (_c: unknown, q: ReadBackQuery) => { queries.push(q); return answer(q); },
  });
  return { adapter, queries };
}

const publishMessages = () => w.queue.sent.filter((s) => s.queueUrl === w.deps.settings.publishQueueUrl).map((s) => s.message.body as PublishMessage);
const webhookMessages = () => w.queue.sent.filter((s) => s.queueUrl === w.deps.settings.webhookQueueUrl);

/** A post accepted with its networks queued, no worker running: the messages are only recorded (then "lost"). */
async function acceptedPost(account: Account, text: string) {
  w.queue.worker = undefined;
  const res = await publishPost(w.deps, account, validatePost({ platform: 'telegram', text }, networkLimits()), { source: 'api', wait: false });
  return { post_id: res.post_id, msg: publishMessages().at(-1)! };
}

/** A claim by a worker that then died (nothing sent, nothing settled). */
async function deadClaim(account: Account, text: string) {
  const { post_id, msg } = await acceptedPost(account, text);
  expect(await w.deps.posts.claim(post_id, 'telegram', ['queued'], w.clock.now())).toBeTruthy();
  return { post_id, msg };
}

describe('the reconciliation sweep of published posts', () => {
  const realTelegram = () => w.deps.networks.telegram!;
  let telegram: NetworkAdapter;
  beforeAll(() => { telegram = realTelegram(); });
  beforeEach(async () => {
    w.telegram.reset();
    w.queue.worker = undefined;
    w.deps = w.rebuild({ networks: { ...w.deps.networks, telegram } });
    // each test sees only its own posts on the due index
    for (const m of await w.deps.posts.reconcileDue(Number.MAX_SAFE_INTEGER, 1_000)) await w.deps.posts.moveReconcile(m.post_id, m.due_at, undefined);
  });
  afterEach(() => { w.queue.worker = w.deps; });

  it('the marker is written while the lock and the month\'s posts are taken, and always before the post', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const steps: string[] = [];
    let lockAsked!: () => void;
    const asked = new Promise<void>((resolve) => { lockAsked = resolve; });
    const base = w.deps;
    const deps = w.rebuild({
      locks: Object.assign(Object.create(base.locks), { acquire: (...a: Parameters<typeof base.locks.acquire>) => { steps.push('lock'); lockAsked(); return base.locks.acquire(...a); } }),
      // the marker's write is answered only once the lock has been asked for: the two are in flight together
      posts: Object.assign(Object.create(base.posts), {
        markForReconcile: async (...a: Parameters<typeof base.posts.markForReconcile>) => { steps.push('marker sent'); await asked; await base.posts.markForReconcile(...a); steps.push('marker written'); },
        create: (...a: Parameters<typeof base.posts.create>) => { steps.push('post'); return base.posts.create(...a); },
      }),
    });
    try {
      w.queue.worker = undefined;
      const res = await publishPost(deps, acc, validatePost({ platform: 'telegram', text: 'marker beside the lock' }, networkLimits()), { source: 'api', wait: false });
      expect(steps).toEqual(['marker sent', 'lock', 'marker written', 'post']);
      expect(await w.deps.posts.reconcileDue(Number.MAX_SAFE_INTEGER, 1_000)).toEqual([expect.objectContaining({ post_id: res.post_id })]);
    } finally {
      w.deps = w.rebuild({ locks: base.locks, posts: base.posts });
    }
  });

  it('a post refused as a duplicate leaves no marker behind; one whose marker cannot be written gives back its lock and month\'s posts', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const valid = validatePost({ platform: 'telegram', text: 'marker of a refused post' }, networkLimits());
    const first = await acceptedPost(acc, 'marker of a refused post');
    await expect(publishPost(w.deps, acc, valid, { source: 'api', wait: false })).rejects.toMatchObject({ code: 'duplicate_post' });
    expect((await w.deps.posts.reconcileDue(Number.MAX_SAFE_INTEGER, 1_000)).map((m) => m.post_id)).toEqual([first.post_id]);

    const postsKey = usageKeys.posts(acc.id, w.clock.now());
    const used = await w.deps.counters.get(postsKey);
    const base = w.deps;
    const broken = w.rebuild({ posts: Object.assign(Object.create(base.posts), { markForReconcile: async () => { throw new Error('table unavailable'); } }) });
    const other = validatePost({ platform: 'telegram', text: 'marker not written' }, networkLimits());
    try {
      await expect(publishPost(broken, acc, other, { source: 'api', wait: false })).rejects.toThrow('table unavailable');
    } finally {
      w.deps = w.rebuild({ posts: base.posts });
    }
    // nothing of it stays: no post, the month's posts as before, and the same post can be sent at once
    expect(await w.deps.counters.get(postsKey)).toBe(used);
    expect((await w.deps.posts.reconcileDue(Number.MAX_SAFE_INTEGER, 1_000)).map((m) => m.post_id)).toEqual([first.post_id]);
    w.queue.worker = undefined;
    await expect(publishPost(w.deps, acc, other, { source: 'api', wait: false })).resolves.toMatchObject({ post_id: expect.any(String) });
  });

  it('re-drives a network whose publish message was lost (or went to the DLQ), once the threshold passed, and it is sent once', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const { post_id } = await acceptedPost(acc, 'lost message');
    const before = publishMessages().length;
    // the message is gone (a crash of the in-memory queue, or the DLQ after maxReceiveCount): nothing is due yet
    expect(await sweepPublishing(w.deps)).toMatchObject({ visited: 0, redriven: 0 });
    w.clock.advance(STALE_CLAIM_MS + 1);
    // through the dispatcher, as the every-minute timer runs it
    await dispatch(w.deps, DispatchInput.parse({ kind: 'publish-sweep' }));
    const copies = publishMessages().slice(before);
    expect(copies).toEqual([{ v: 1, post_id, platform: 'telegram', deferral: 0 }]);
    // the copy and a late original both arrive: the claim sends once
    await Promise.all([sendToNetwork(w.deps, copies[0]), sendToNetwork(w.deps, copies[0])]);
    expect(w.telegramSends()).toBe(1);
    expect((await getPost(w.deps, acc.id, post_id)).results[0]).toMatchObject({ ok: true, status: 'published' });
    // the next visit finds every network settled and takes the post off the due index
    w.clock.advance(STALE_CLAIM_MS + 1);
    expect(await sweepPublishing(w.deps)).toMatchObject({ visited: 1, redriven: 0, settled: 1 });
    w.clock.advance(STALE_CLAIM_MS * 10);
    expect((await sweepPublishing(w.deps)).visited).toBe(0);
  });

  it('leaves a fresh claim to its live worker, and re-drives it once the claim is stale', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const { post_id } = await deadClaim(acc, 'claimed then died');
    w.clock.advance(STALE_CLAIM_MS - 5_000);
    const before = publishMessages().length;
    await w.deps.posts.moveReconcile(post_id, (await w.deps.posts.reconcileDue(Number.MAX_SAFE_INTEGER, 500)).find((m) => m.post_id === post_id)!.due_at, w.clock.now());
    expect(await sweepPublishing(w.deps)).toMatchObject({ visited: 1, redriven: 0 });
    expect(publishMessages().length).toBe(before);
    // visited again a minute later (the marker moved there), when the claim is stale
    w.clock.advance(60_001);
    expect(await sweepPublishing(w.deps)).toMatchObject({ visited: 1, redriven: 1 });
    await sendToNetwork(w.deps, publishMessages().at(-1)!);
    // Telegram's adapter has no read-back: unknown, with what and fix, and nothing sent
    expect((await getPost(w.deps, acc.id, post_id)).results[0]).toMatchObject({ status: 'unknown', code: 'outcome_unknown', what: expect.any(String), fix: expect.any(String) });
    expect(w.telegramSends()).toBe(0);
  });

  it('read-back found: the stale network is settled published with its id and URL, never resent; post.reconciled says so', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    await createWebhook(w.deps, acc, { url: 'http://127.0.0.1:9/hooks', events: ['post.published', 'post.reconciled'] });
    const rb = readBackTelegram(() => ({ state: 'found', id: '77', url: 'https://t.me/acmenews/77' }));
    w.deps = w.rebuild({ networks: { ...w.deps.networks, telegram: rb.adapter } });
    const { post_id, msg } = await deadClaim(acc, 'found on the network');
    const claimedAt = (await w.deps.posts.get(post_id))!.networks[0].claimed_at!;
    w.clock.advance(STALE_CLAIM_MS + 1);
    const hooksBefore = webhookMessages().length;
    const start = w.clock.now();
    await sendToNetwork(w.deps, msg);
    // the window: from a minute before the dead worker's claim to the take-over
    expect(rb.queries).toEqual([{ text: 'found on the network', since: claimedAt - 60_000, until: expect.any(Number), marker: `${post_id}:telegram` }]);
    expect(rb.queries[0].until).toBeGreaterThanOrEqual(start);
    const after = await getPost(w.deps, acc.id, post_id);
    expect(after.results[0]).toMatchObject({ ok: true, status: 'published', id: '77', url: 'https://t.me/acmenews/77' });
    expect(w.telegramSends()).toBe(0);
    const reconciled = after.events.find((e) => e.type === 'post.reconciled')!;
    const published = after.events.find((e) => e.type === 'post.published')!;
    expect(reconciled.data).toMatchObject({ post_id, platform: 'telegram', status: 'published', url: 'https://t.me/acmenews/77', decided_by_read_back: true, read_back: 'found', action: 'settled', outcome_event_id: published.id });
    // both events go to the endpoint subscribed to them
    expect(webhookMessages().length - hooksBefore).toBe(2);
  });

  it('read-back absent: sent again once through the same claim; a second take-over does not send a third time', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const rb = readBackTelegram(() => ({ state: 'absent' }));
    w.deps = w.rebuild({ networks: { ...w.deps.networks, telegram: rb.adapter } });
    const first = await deadClaim(acc, 'absent once');
    w.clock.advance(STALE_CLAIM_MS + 1);
    await Promise.all([sendToNetwork(w.deps, first.msg), sendToNetwork(w.deps, first.msg)]);
    expect(w.telegramSends()).toBe(1);
    const after = await getPost(w.deps, acc.id, first.post_id);
    expect(after.results[0]).toMatchObject({ ok: true, status: 'published' });
    expect(after.events.find((e) => e.type === 'post.reconciled')!.data).toMatchObject({ decided_by_read_back: true, read_back: 'absent', action: 'resent' });

    // the resend's worker died too: the next take-over finds the resend spent
    const second = await deadClaim(acc, 'absent twice');
    w.clock.advance(STALE_CLAIM_MS + 1);
    const seen = (await w.deps.posts.get(second.post_id))!.networks[0];
    expect(await w.deps.posts.takeOver(second.post_id, 'telegram', seen.claimed_at!, w.clock.now())).toBeTruthy();
    w.clock.advance(STALE_CLAIM_MS + 1);
    await sendToNetwork(w.deps, second.msg);
    expect(w.telegramSends()).toBe(1);
    expect((await getPost(w.deps, acc.id, second.post_id)).results[0]).toMatchObject({ status: 'unknown', code: 'outcome_unknown', error: expect.stringMatching(/sent again once/) });
  });

  it('read-back unreadable (or throwing): unknown with the reason, nothing sent', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    for (const [answer, reason] of [
      [() => ({ state: 'unreadable', reason: 'the feed answered 503' }), /the feed answered 503/],
      [() => { throw new Error('socket hang up'); }, /socket hang up/],
    ] as const) {
      w.deps = w.rebuild({ networks: { ...w.deps.networks, telegram: readBackTelegram(answer as () => ReadBackOutcome).adapter } });
      const { post_id, msg } = await deadClaim(acc, `unreadable ${String(reason)}`);
      w.clock.advance(STALE_CLAIM_MS + 1);
      await sendToNetwork(w.deps, msg);
      const after = await getPost(w.deps, acc.id, post_id);
      expect(after.results[0]).toMatchObject({ ok: false, status: 'unknown', code: 'outcome_unknown', error: expect.stringMatching(reason) });
      expect(after.events.find((e) => e.type === 'post.reconciled')!.data).toMatchObject({ decided_by_read_back: false, read_back: 'unreadable', action: 'left_unknown' });
    }
    expect(w.telegramSends()).toBe(0);
  });

  it('outbox: a crash between the settle and its webhook deliveries loses none: the sweep writes them, once', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    await createWebhook(w.deps, acc, { url: 'http://127.0.0.1:9/hooks' });
    const { post_id, msg } = await acceptedPost(acc, 'settled then crashed');
    const fanOut = w.deps.fanOut;
    const crashing: EventFanOut = { prepare: async () => { throw new Error('process killed'); }, forget: (a) => fanOut.forget(a) };
    w.deps = w.rebuild({ fanOut: crashing });
    try {
      await expect(sendToNetwork(w.deps, msg)).rejects.toThrow('process killed');
    } finally {
      w.deps = w.rebuild({ fanOut });
    }
    expect((await getPost(w.deps, acc.id, post_id)).results[0]).toMatchObject({ status: 'published' });
    const before = webhookMessages().length;
    w.clock.advance(STALE_CLAIM_MS + 1);
    expect(await sweepPublishing(w.deps)).toMatchObject({ visited: 1, settled: 1 });
    const queued = webhookMessages().slice(before);
    expect(queued).toHaveLength(1);
    const delivery = await w.deps.webhooks.getDelivery((queued[0].message.body as { delivery_id: string }).delivery_id);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'post.published', data: { post_id } });
    // a second pass (two sweeps racing) writes no second delivery
    const stored = (await w.deps.posts.get(post_id))!.networks[0].event!;
    await (await w.deps.fanOut.prepare(stored))();
    expect(webhookMessages().length - before).toBe(1);
  });

  it('a live worker and a take-over race on the same claim: exactly one of them writes (conditional writes, real concurrency)', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    for (let i = 0; i < 10; i++) {
      const { post_id } = await acceptedPost(acc, `race ${i}`);
      const claimed = await w.deps.posts.claim(post_id, 'telegram', ['queued'], w.clock.now());
      const claimedAt = claimed!.networks[0].claimed_at!;
      const outcomes = await Promise.allSettled([
        w.deps.posts.settle(post_id, 'telegram', 'done', { platform: 'telegram', ok: true, status: 'published', id: `n${i}` }, { reserved: true }, undefined, claimedAt),
        w.deps.posts.takeOver(post_id, 'telegram', claimedAt, claimedAt + STALE_CLAIM_MS + 1),
        w.deps.posts.takeOver(post_id, 'telegram', claimedAt, claimedAt + STALE_CLAIM_MS + 2),
      ]);
      const settled = outcomes[0].status === 'fulfilled';
      const takeovers = outcomes.slice(1).filter((o) => o.status === 'fulfilled' && o.value).length;
      expect(Number(settled) + takeovers).toBe(1);
      const net = (await w.deps.posts.get(post_id))!.networks[0];
      expect(net.state).toBe(settled ? 'done' : 'sending');
    }
  });
});

describe('reconciliation with a real read-back (the Mastodon adapter against its loopback fake)', () => {
  const mastodon = new MastodonFake();
  beforeAll(async () => { await mastodon.start(); mastodon.now = () => w.clock.now(); });
  afterAll(() => mastodon.stop());
  afterEach(() => { w.queue.worker = w.deps; });
  const statuses = (text: string) => mastodon.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/statuses' && (r.json as { status?: string })?.status === text).length;

  it('a worker that sent and died: found on the network, settled published with its URL, not sent again; one that died before sending: sent once', async () => {
    const acc = await w.newAccount('pro');
    await connect(w.deps, acc, { platform: 'mastodon', credentials: { instance_url: mastodon.url, access_token: mastodon.token } });
    w.queue.worker = undefined;
    const publish = async (text: string) => {
      const res = await publishPost(w.deps, acc, validatePost({ platform: 'mastodon', text }, networkLimits()), { source: 'api', wait: false });
      const claimed = await w.deps.posts.claim(res.post_id, 'mastodon', ['queued'], w.clock.now());
      return { post_id: res.post_id, claimed: claimed!, msg: publishMessages().at(-1)! };
    };

    // the dead worker got as far as the network
    const sent = await publish('Sent before the crash');
    const creds = { instance_url: mastodon.url, access_token: mastodon.token };
    const outcome = await w.deps.networks.mastodon!.publish(contentFor(sent.claimed.post.payload, 'mastodon', sent.post_id), networkContext(w.deps, creds));
    expect(outcome.ok).toBe(true);
    // the other one died right after its claim
    const unsent = await publish('Never reached the network');
    w.clock.advance(STALE_CLAIM_MS + 1);
    await Promise.all([sendToNetwork(w.deps, sent.msg), sendToNetwork(w.deps, unsent.msg)]);

    const found = await getPost(w.deps, acc.id, sent.post_id);
    expect(found.results[0]).toMatchObject({ ok: true, status: 'published', id: outcome.ok && outcome.id, url: outcome.ok && outcome.url });
    expect(found.events.find((e) => e.type === 'post.reconciled')!.data).toMatchObject({ decided_by_read_back: true, read_back: 'found', action: 'settled' });
    expect(statuses('Sent before the crash')).toBe(1);

    const resent = await getPost(w.deps, acc.id, unsent.post_id);
    expect(resent.results[0]).toMatchObject({ ok: true, status: 'published', url: expect.stringContaining(mastodon.url) });
    expect(resent.events.find((e) => e.type === 'post.reconciled')!.data).toMatchObject({ decided_by_read_back: true, read_back: 'absent', action: 'resent' });
    expect(statuses('Never reached the network')).toBe(1);
  });
});
