import { Sandbox } from '../../infra/local/sandbox';
import { buildRegistry } from '../../shared/networks/registry';
import { parseConfig } from '../../shared/config';
import { METRIC_NAMES, type MetricsReading } from '../../shared/domain/analytics';
import type { PublishContent } from '../../shared/ports/networks';
import { testContext } from './context';
import { ManualClock } from '../support/clock';
import { analyticsSimulators, ANALYTICS_NETWORKS, sandboxNetworkCases } from '../support/sandbox-analytics';

/**
 * `npm start` shows analytics: the simulator of every network with post analytics, mounted under /sandbox/<network>/
 * as the local server mounts it, answers the network's analytics request for a post published through it with
 * figures, and the figures grow with the time since the post was published.
 */
const sandbox = new Sandbox();
let close: () => Promise<void> = async () => undefined;
const HOUR = 3600_000;
let figuresAt = Date.now();

beforeAll(async () => {
  ({ close } = await sandbox.listen());
  for (const s of analyticsSimulators(sandbox)) s.figures.now = () => figuresAt;
});
afterAll(() => close());

const total = (r: MetricsReading) => Object.values(r.metrics).reduce((a, b) => a + (b ?? 0), 0);

it('covers every network that offers post analytics', () => {
  const offered = Object.values(buildRegistry(parseConfig({}))).filter((a) => a?.metrics).map((a) => a!.name).sort();
  expect(sandboxNetworkCases(sandbox).map(([n]) => n)).toEqual([...ANALYTICS_NETWORKS]);
  expect([...ANALYTICS_NETWORKS].sort()).toEqual(offered);
});

it.each([...ANALYTICS_NETWORKS])('%s: a post published through the simulator has figures, and they grow with the time since publishing', async (name) => {
  const [, adapter, creds, over] = sandboxNetworkCases(sandbox).find(([n]) => n === name)!;
  const content: PublishContent = { text: `Count me on the ${name} sandbox`, media: [], thread: [], send_key: `an-${name}`, ...over };
  const ctx = () => testContext(creds, { timeoutMs: 10_000, clock: new ManualClock(figuresAt, { sleeps: 'instant' }) }).ctx;
  const sent = await adapter.publish(content, ctx());
  if (!sent.ok || sent.status !== 'published') throw new Error(`${name}: ${JSON.stringify(sent)}`);
  const ref = { id: sent.id!, url: sent.url };
  const first = await adapter.metrics!.read([ref], ctx());
  if (!first.ok) throw new Error(`${name}: ${first.error}`);
  const early = first.readings[ref.id];
  if (typeof early !== 'object') throw new Error(`${name}: no figures (${String(early)})`);
  expect(Object.keys(early.metrics).every((m) => (METRIC_NAMES as readonly string[]).includes(m))).toBe(true);
  expect(Object.keys(early.source).sort()).toEqual(Object.keys(early.metrics).sort());
  figuresAt += 3 * HOUR;
  const later = await adapter.metrics!.read([ref], ctx());
  if (!later.ok) throw new Error(`${name}: ${later.error}`);
  const grown = later.readings[ref.id] as MetricsReading;
  expect([name, total(grown) > total(early)]).toEqual([name, true]);
});
