import { publishingWorld } from '../support/publishing';
import { ManualClock } from '../support/clock';
import { publishPost } from '../../shared/app/publish/create-post';
import { BACKSTOP_POLL_MS, RESULT_POLL_MS } from '../../shared/app/publish/wait-for-results';
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
    const res = await publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'rung, not polled' }), { source: 'api', wait: true });
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
      const answer = publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'polled, not rung' }), { source: 'api', wait: true });
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
      const answer = publishPost(w.deps, account, validatePost({ platform: 'discord', text: 'ring lost' }), { source: 'api', wait: true });
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
});
