import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { LOCAL_AWS_REQUEST } from '../../infra/local/in-process-requests';
import type { LocalRuntime } from '../../infra/local/runtime';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { SlackFake } from '../../shared/networks/slack/simulator';
import { logContext } from '../../shared/log';
import { client, signupThroughApi, startRuntime } from '../support/runtime';

/**
 * DynamoDB calls per published post, end to end through the local runtime: POST /api/post (auth, the
 * publish path), the SQS fan-out, the publish worker and the webhook fan-out of an account without webhooks. Every
 * HTTP request the SDK sends to the embedded engine on behalf of a request or a queue message is counted
 * (node:diagnostics_channel; the local scheduler's own polling is not), until every network is settled. The API's wait
 * takes the settled networks from the worker's ring; its backstop reads (one small GetItem each) follow the time the
 * post takes, so they are counted apart. Also the critical path: how many of these requests run one after another
 * before the answer is sent (timed at the runtime's in-process transports).
 * Rate limits are off here (DISABLE_RATE_LIMITS), as in bench/calls.bench.ts: with them each request adds its two
 * counter updates.
 */
const discord = new DiscordFake();
const slack = new SlackFake();
const mastodon = new MastodonFake();
let rt: LocalRuntime;
let api: ReturnType<typeof client>;
let seq = 0;

beforeAll(async () => {
  await Promise.all([discord.start(), slack.start(), mastodon.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1' });
  api = client(rt.url, await signupThroughApi(rt.url, 'calls@example.com', 'pro'));
  expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
  expect((await api('POST', '/api/connect', { platform: 'slack', credentials: { webhook_url: slack.webhookUrl } })).status).toBe(200);
  expect((await api('POST', '/api/connect', { platform: 'mastodon', credentials: { instance_url: mastodon.url, access_token: mastodon.token } })).status).toBe(200);
  // a first post warms what a running container keeps (the webhook subscription list)
  await measure(['discord']);
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await Promise.all([discord.stop(), slack.stop(), mastodon.stop()]);
});

/** A DynamoDB or SQS request of the post's work, as its transport saw it (ms, performance.now()). */
interface Timed { call: string; start: number; end: number }

/**
 * Times every request of the runtime's DynamoDB and SQS clients made for a request or a queue message (a correlation
 * id; not a sweep's), at their in-process transports: when the SDK hands it over and when the answer comes back.
 */
function timeRequests(): { calls: Timed[]; stop: () => void } {
  const calls: Timed[] = [];
  const restore: Array<() => void> = [];
  for (const [engine, transport] of Object.entries(rt.transports)) {
    const handle = transport.handle;
    transport.handle = function timed(this: typeof transport, ...args: Parameters<typeof handle>) {
      const out = handle.apply(this, args);
      if (!logContext().correlation_id || /-sweep$|^schedule-fan-out$/.test(String(logContext().dispatch_kind ?? ''))) return out;
      const t: Timed = { call: `${engine} ${String(args[0].headers['x-amz-target'] ?? '').split('.').pop()}`, start: performance.now(), end: Infinity };
      calls.push(t);
      void out.then(() => { t.end = performance.now(); }, () => { t.end = performance.now(); });
      return out;
    };
    restore.push(() => { transport.handle = handle; });
  }
  return { calls, stop: () => { for (const r of restore) r(); } };
}

/** The longest run of requests one after another (each sent after the one before it was answered) among `calls`. */
function longestChain(calls: Timed[]): string[] {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const best: string[][] = [];
  sorted.forEach((c, i) => {
    const before = sorted.slice(0, i).map((p, j) => (p.end <= c.start ? best[j] : [])).reduce((a, b) => (b.length > a.length ? b : a), []);
    best.push([...before, c.call]);
  });
  return best.reduce((a, b) => (b.length > a.length ? b : a), []);
}

/**
 * The post's critical path in table and queue requests: from POST /api/post sent until the runtime has sent its
 * answer, the longest run of requests made one after another (requests in flight together count once).
 */
async function criticalPath(platforms: string[]) {
  await rt.drained();
  const timed = timeRequests();
  let answered = Infinity;
  const onAnswer = (msg: unknown) => {
    const { request } = msg as { request: IncomingMessage };
    if (request.method === 'POST' && request.url === '/api/post') answered = performance.now();
  };
  diagnostics.subscribe('http.server.response.finish', onAnswer);
  try {
    const sent = performance.now();
    const res = await api('POST', '/api/post', { platforms, text: `Critical path ${++seq}` });
    expect(res.status).toBe(200);
    expect((res.body.results as Array<{ status: string }>).map((r) => r.status)).toEqual(platforms.map(() => 'published'));
    await rt.drained();
    const ours = timed.calls.filter((c) => c.start >= sent && c.end <= answered);
    const queued = ours.find((c) => c.call === 'sqs SendMessageBatch');
    return { whole: longestChain(ours), untilQueued: longestChain(ours.filter((c) => queued && c.end <= queued.end)) };
  } finally {
    diagnostics.unsubscribe('http.server.response.finish', onAnswer);
    timed.stop();
  }
}

/** Publishes one post and counts the DynamoDB calls (by operation) until every network has settled. */
async function measure(platforms: string[]) {
  // the previous post's worker may still be writing after its last settle (network id, analytics): not this post's calls
  await rt.drained();
  const calls: string[] = [];
  // the runtime's DynamoDB clients reach the engine in-process; its transport announces each request
  const onRequest = (msg: unknown) => {
    const { engine, target } = msg as { engine: string; target: string };
    if (engine !== 'dynamodb') return;
    // only work done for a request or a queue message (the local scheduler's and media sweep's polls have no correlation id)
    if (!logContext().correlation_id) return;
    // the deployment's recurring sweeps (dispatched timers with a correlation id of their own) are not the post's work
    if (/-sweep$|^schedule-fan-out$/.test(String(logContext().dispatch_kind ?? ''))) return;
    calls.push(target.split('.').pop() ?? '?');
  };
  const posts = rt.deps.posts;
  const { settle, poll } = posts;
  let polls = 0;
  let settledCount = 0;
  let allSettled!: () => void;
  const done = new Promise<void>((resolve) => { allSettled = resolve; });
  posts.settle = async (...args: Parameters<typeof settle>) => {
    const out = await settle.apply(posts, args);
    if (++settledCount === platforms.length) allSettled();
    return out;
  };
  if (poll) posts.poll = async (...args: Parameters<typeof poll>) => { polls++; return poll.apply(posts, args); };
  diagnostics.subscribe(LOCAL_AWS_REQUEST, onRequest);
  try {
    const res = await api('POST', '/api/post', { platforms, text: `Counting calls ${++seq}` });
    expect(res.status).toBe(200);
    expect((res.body.results as Array<{ status: string }>).map((r) => r.status)).toEqual(platforms.map(() => 'published'));
    await done;
    // the worker's last writes (the analytics item) follow the settle: counted here, never in the next measurement
    await rt.drained();
  } finally {
    diagnostics.unsubscribe(LOCAL_AWS_REQUEST, onRequest);
    posts.settle = settle;
    posts.poll = poll;
  }
  return { total: calls.length, polls, calls };
}

describe('DynamoDB calls per post (embedded engine, whole local runtime)', () => {
  // The budget includes the post's reconciliation marker (PUBDUE#, written before the post so that a lost message or a
  // crash can never lose the post: decisions.md "Nothing lost across a crash"): one write more than before it.
  // And, per published network, the analytics tracking item (shared/app/analytics: the sweep's due index).
  // The wait reads nothing when the worker's ring carries the settled networks (locally it always does); a backstop
  // read comes only when a post takes longer than BACKSTOP_POLL_MS, so such reads are counted apart.
  it('a post to 1 network takes at most 10 calls', async () => {
    const m = await measure(['discord']);
    // on failure the count is printed with the operations seen
    const seen = { count: m.total - m.polls, calls: m.calls };
    expect(seen).toEqual({ ...seen, count: Math.min(seen.count, 10) });
  });

  it('a post to 3 networks takes at most 18 calls (at most 4 per added network)', async () => {
    const one = await measure(['discord']);
    const three = await measure(['discord', 'slack', 'mastodon']);
    const seen = { count: three.total - three.polls, calls: three.calls };
    expect(seen).toEqual({ ...seen, count: Math.min(seen.count, 18) });
    expect((three.total - three.polls) - (one.total - one.polls)).toBeLessThanOrEqual(2 * 4);
  });

  // Before: auth, context, lock, month's posts, marker, post, send, claim, settle, network-id pointer, the wait's read
  // (11). The marker is written beside the lock, the pointer beside the settle, and the ring carries the settled item.
  it('a post to 1 network waits on at most 8 table and queue requests one after another', async () => {
    const { whole } = await criticalPath(['discord']);
    expect({ length: whole.length, whole }).toEqual({ length: Math.min(whole.length, 8), whole });
  });

  // the networks' own answer times order their settles; what comes before the messages are queued does not grow
  it('a post to 3 networks queues its messages after at most 6 requests one after another, as for 1', async () => {
    const { untilQueued } = await criticalPath(['discord', 'slack', 'mastodon']);
    expect(untilQueued.at(-1)).toBe('sqs SendMessageBatch');
    expect({ length: untilQueued.length, untilQueued }).toEqual({ length: Math.min(untilQueued.length, 6), untilQueued });
  });
});
