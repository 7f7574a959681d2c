import { networkLimits } from '../../shared/networks/descriptor-limits';
import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { publishingWorld } from '../support/publishing';
import { createSchedule } from '../../shared/app/schedule/create';
import { getSchedule } from '../../shared/app/schedule/manage';
import { ScheduleRequestSchema } from '../../shared/app/schedule/request';
import { fireScheduled } from '../../shared/app/schedule/fire';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());

/** The operations (x-amz-target) of every request that reaches the embedded DynamoDB while `fn` runs. */
async function dynamoCalls(fn: () => Promise<unknown>): Promise<string[]> {
  const calls: string[] = [];
  const onRequest = (msg: unknown) => {
    const target = String((msg as { request: ClientRequest }).request.getHeader('x-amz-target') ?? '');
    if (target.startsWith('DynamoDB_')) calls.push(target.split('.').pop()!);
  };
  diagnostics.subscribe('http.client.request.start', onRequest);
  try { await fn(); } finally { diagnostics.unsubscribe('http.client.request.start', onRequest); }
  return calls;
}

/** Scheduling a post and the dispatcher firing it add at most this many DynamoDB calls to the post's own. */
const SCHEDULED_EXTRA_CALLS = 8;

describe('DynamoDB calls of a scheduled post (embedded engine)', () => {
  it(`scheduling it and firing it cost at most ${SCHEDULED_EXTRA_CALLS} calls more than sending the same post at once`, async () => {
    const acc = await w.discordAccount('pro');
    // warm: the first post of an account may read what later ones find cached
    await publishPost(w.deps, acc, validatePost({ platform: 'discord', text: 'warm-up' }, networkLimits()), { source: 'api', wait: false });
    await w.queue.drain();

    const direct = await dynamoCalls(async () => {
      await publishPost(w.deps, acc, validatePost({ platform: 'discord', text: 'at once' }, networkLimits()), { source: 'api', wait: false });
      await w.queue.drain();
    });
    let scheduleId = '';
    const scheduling = await dynamoCalls(async () => {
      // as POST /api/schedule does: the key check of a publish route reads the account's publishing context in one
      // query (as publishPost does above for the post sent at once) and the schedule uses it
      const context = await w.deps.publishContext.load(acc.id);
      const s = await createSchedule(w.deps, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: 'later', run_at: new Date(w.clock.now() + 600_000).toISOString() }), undefined, context);
      scheduleId = s.schedule_id;
    });
    w.clock.ms = w.clock.now() + 600_000 + 1_000;
    const firing = await dynamoCalls(async () => {
      // its fire message, as the fire worker gets it (the per-minute fan-out's four queries serve every post of the minute)
      await fireScheduled(w.deps, scheduleId);
      await w.queue.drain();
    });

    expect(await getSchedule(w.deps, acc.id, scheduleId)).toMatchObject({ status: 'published', results: [{ platform: 'discord', ok: true }] });
    const extra = scheduling.length + firing.length - direct.length;
    expect(extra).toBeLessThanOrEqual(SCHEDULED_EXTRA_CALLS);
  });
});
