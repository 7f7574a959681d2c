import diagnostics from 'node:diagnostics_channel';
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
 * (node:diagnostics_channel; the local scheduler's own polling is not), until every network is settled. The API's wait reads the networks' states at a fixed interval, one small GetItem each; how many it takes
 * follows the network's own time, so they are counted apart: the budget is every other call plus one such read.
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
  it('a post to 1 network takes at most 11 calls (counting one result read)', async () => {
    const m = await measure(['discord']);
    expect(m.polls).toBeGreaterThanOrEqual(1);
    // on failure the count is printed with the operations seen
    const seen = { count: m.total - m.polls + 1, calls: m.calls };
    expect(seen).toEqual({ ...seen, count: Math.min(seen.count, 11) });
  });

  it('a post to 3 networks takes at most 19 calls (at most 4 per added network)', async () => {
    const one = await measure(['discord']);
    const three = await measure(['discord', 'slack', 'mastodon']);
    const seen = { count: three.total - three.polls + 1, calls: three.calls };
    expect(seen).toEqual({ ...seen, count: Math.min(seen.count, 19) });
    expect((three.total - three.polls) - (one.total - one.polls)).toBeLessThanOrEqual(2 * 4);
  });
});
