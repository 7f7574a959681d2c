import { Sandbox } from '../../infra/local/sandbox';
import { createWordpressAdapter } from '../../shared/networks/wordpress';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { testContext } from './context';
import { ManualClock } from '../support/clock';
import { sandboxNetworkCases } from '../support/sandbox-analytics';

/**
 * `npm start` can read back: each simulator, mounted under /sandbox/<network>/ as the local server mounts it, lists
 * what it received at the network's real read path, so a post published through it is found again (and a post it
 * never received is absent).
 */
const sandbox = new Sandbox();
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ close } = await sandbox.listen());
});
afterAll(() => close());

const NAMES = ['mastodon', 'bluesky', 'wordpress', 'devto', 'hashnode', 'x', 'reddit', 'linkedin', 'youtube', 'facebook', 'instagram'];

type Case = [string, NetworkAdapter, Record<string, string>, Partial<PublishContent>];

/** The sandbox cases' adapters and credentials (test/support/sandbox-analytics.ts), plus WordPress, which has no analytics. */
const cases = (): Case[] => {
  const shared = sandboxNetworkCases(sandbox);
  const wordpress: Case = ['wordpress', createWordpressAdapter(), sandbox.credentials().wordpress, { title: 'Sandbox title' }];
  return NAMES.map((name) => (name === 'wordpress' ? wordpress : shared.find(([n]) => n === name)!));
};

it('covers every case listed', () => expect(cases().map(([n]) => n)).toEqual(NAMES));

it.each(NAMES)('%s: a post published through the simulator is found again; another text is absent', async (name) => {
  const [, adapter, creds, over] = cases().find(([n]) => n === name)!;
  const text = `Read me back from the ${name} sandbox`;
  const content: PublishContent = { text, media: [], thread: [], send_key: `rb-${name}`, ...over };
  const { ctx } = testContext(creds, { timeoutMs: 10_000, clock: new ManualClock(Date.now(), { sleeps: 'instant' }) });
  const since = ctx.now();
  const sent = await adapter.publish(content, ctx);
  expect([name, sent.ok]).toEqual([name, true]);
  const until = testContext(creds).ctx.now();
  const found = await adapter.readBack!(content, { text, title: over.title, since, until }, testContext(creds, { timeoutMs: 10_000 }).ctx);
  expect([name, found]).toEqual([name, { state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url }]);
  const other = { ...content, text: `${text}, never sent` };
  const absent = await adapter.readBack!(other, { text: other.text, title: over.title, since, until }, testContext(creds, { timeoutMs: 10_000 }).ctx);
  expect([name, absent]).toEqual([name, { state: 'absent' }]);
});
