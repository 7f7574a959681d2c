import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { ManualClock } from '../support/clock';
import { publishPost } from '../../shared/app/publish/create-post';
import { BACKSTOP_POLL_MS, RESULT_POLL_MS, waitForResults } from '../../shared/app/publish/wait-for-results';
import { validatePost } from '../../shared/app/publish/request';
import { InProcessResults } from '../../shared/adapters/local/in-process-results';
import { polledResults } from '../../shared/adapters/aws/polled-results';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());

/** A promise's state without waiting for it. */
const settled = (p: Promise<unknown>) => { const s = { done: false }; void p.then(() => { s.done = true; }, () => { s.done = true; }); return s; };

describe('result signal (noticing results)', () => {
  it('locally, the worker\'s ring wakes the waiting request before its poll interval: time never moves', async () => {
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    w.deps = w.rebuild({ clock });
    const signal = w.deps.resultSignal;
    expect(signal).toBeInstanceOf(InProcessResults);
    const account = await w.discordAccount();
    const started = clock.now();
    const res = await publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'rung, not polled' }, networkLimits()), { source: 'api', wait: true });
    await w.queue.drain();
    expect(res.results.map((r) => [r.platform, r.status])).toEqual([['discord', 'published']]);
    // every wait asked for was the backstop interval, and none of them ended: the clock never moved
    expect(clock.now()).toBe(started);
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(clock.sleeps.every((ms) => ms === BACKSTOP_POLL_MS)).toBe(true);
    expect((signal as InProcessResults).listening).toBe(0);
  });

  it('in AWS nothing rings: the same loop notices the result at its next poll, RESULT_POLL_MS later', async () => {
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    w.deps = w.rebuild({ clock });
    w.deps = w.rebuild({ resultSignal: polledResults });
    try {
      const account = await w.discordAccount();
      const answer = publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'polled, not rung' }, networkLimits()), { source: 'api', wait: true });
      const state = settled(answer);
      await clock.sleeping(1); // queued, and waiting
      expect(clock.sleeps).toEqual([RESULT_POLL_MS]);
      await w.queue.drain();
      // the worker has settled the network, but the request is still in its wait
      expect(await w.deps.posts.poll((w.queue.sent.at(-1)!.message.body as { post_id: string }).post_id, ['discord'])).toEqual([expect.objectContaining({ state: 'done' })]);
      expect(state.done).toBe(false);
      clock.advance(RESULT_POLL_MS);
      const res = await answer;
      expect(res.results.map((r) => [r.platform, r.status])).toEqual([['discord', 'published']]);
    } finally {
      w.deps = w.rebuild({ resultSignal: new InProcessResults() });
    }
  });

  it('locally a lost ring costs one backstop interval, never the result', async () => {
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    w.deps = w.rebuild({ clock });
    const deaf: InProcessResults = Object.assign(new InProcessResults(), { ring: () => undefined });
    w.deps = w.rebuild({ resultSignal: deaf });
    try {
      const account = await w.discordAccount();
      const answer = publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'ring lost' }, networkLimits()), { source: 'api', wait: true });
      await clock.sleeping(1);
      await w.queue.drain();
      expect(clock.sleeps).toEqual([BACKSTOP_POLL_MS]);
      clock.advance(BACKSTOP_POLL_MS);
      expect((await answer).results.map((r) => [r.platform, r.status])).toEqual([['discord', 'published']]);
    } finally {
      w.deps = w.rebuild({ resultSignal: new InProcessResults() });
    }
  });

  it('a ring wakes the listeners of that post only, once; stopped listeners are forgotten', async () => {
    const signal = new InProcessResults();
    const a = signal.listen('pst_a');
    const a2 = signal.listen('pst_a');
    const b = signal.listen('pst_b');
    const woken = { a: settled(a.rung), a2: settled(a2.rung), b: settled(b.rung) };
    signal.ring('pst_a');
    await Promise.all([a.rung, a2.rung]);
    await Promise.resolve();
    expect(woken).toEqual({ a: { done: true }, a2: { done: true }, b: { done: false } });
    expect(signal.listening).toBe(1);
    b.stop();
    a.stop();
    expect(signal.listening).toBe(0);
    signal.ring('pst_b');
    await Promise.resolve();
    expect(woken.b.done).toBe(false);
  });

  it('locally the ring carries the settled networks: the waiting request reads nothing itself', async () => {
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    w.deps = w.rebuild({ clock });
    const posts = w.deps.posts;
    const poll = jest.spyOn(posts, 'poll');
    try {
      const account = await w.discordAccount();
      const res = await publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'rung with the result' }, networkLimits()), { source: 'api', wait: true });
      await w.queue.drain();
      expect(res.results).toEqual([expect.objectContaining({ platform: 'discord', status: 'published', id: expect.any(String) })]);
      expect(poll).not.toHaveBeenCalled();
      // what the ring carried is what the table holds
      expect(await posts.poll(res.post_id, ['discord'])).toEqual([{ platform: 'discord', state: 'done', result: res.results[0] }]);
    } finally {
      poll.mockRestore();
    }
  });

  it('a ring that carries an older state of a network the wait saw settled does not undo it', async () => {
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    const signal = new InProcessResults();
    const poll = jest.fn();
    const queued = (platform: 'discord' | 'slack') => ({ post_id: 'pst_x', account_id: 'acc_x', platform, state: 'queued' as const, deferrals: 0, reserved: true });
    const ok = (platform: 'discord' | 'slack') => ({ platform, ok: true as const, status: 'published' as const, id: `${platform}-1` });
    const answer = waitForResults({ clock, posts: { poll } as never, resultSignal: signal }, 'pst_x', [queued('discord'), queued('slack')], clock.now() + 30_000);
    await clock.sleeping(1);
    // slack's settle was written second but rings first; discord's ring carries slack as it was before
    await signal.ring('pst_x', [{ platform: 'slack', state: 'done', result: ok('slack') }]);
    await clock.sleeping(2);
    await signal.ring('pst_x', [{ platform: 'discord', state: 'done', result: ok('discord') }, { platform: 'slack', state: 'sending' }]);
    const final = await answer;
    expect(final.map((n) => [n.platform, n.state, n.result?.id])).toEqual([['discord', 'done', 'discord-1'], ['slack', 'done', 'slack-1']]);
    expect(poll).not.toHaveBeenCalled();
  });

  it('a ring without networks (a post change) still ends the wait with a read of the post', async () => {
    const clock = new ManualClock(Date.now(), { sleeps: 'advance' });
    const signal = new InProcessResults();
    const poll = jest.fn(async () => [{ platform: 'discord' as const, state: 'done' as const, result: { platform: 'discord' as const, ok: true as const, status: 'published' as const } }]);
    const answer = waitForResults({ clock, posts: { poll } as never, resultSignal: signal }, 'pst_y', [{ post_id: 'pst_y', account_id: 'acc_y', platform: 'discord', state: 'queued', deferrals: 0, reserved: true }], clock.now() + 30_000);
    await clock.sleeping(1);
    await signal.ring('pst_y');
    expect((await answer).map((n) => n.state)).toEqual(['done']);
    expect(poll).toHaveBeenCalledTimes(1);
  });

  it('the worker goes on after a ring only once the requests it woke have had their turn', async () => {
    const signal = new InProcessResults();
    const order: string[] = [];
    const listener = signal.listen('pst_z');
    // the woken request answers through a few promise jobs (its wait, the handler, the reply)
    void listener.rung.then(async () => { for (let i = 0; i < 20; i++) await Promise.resolve(); order.push('answered'); });
    await signal.ring('pst_z', []);
    order.push('after-work');
    expect(order).toEqual(['answered', 'after-work']);
  });
});
