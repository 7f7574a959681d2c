import fs from 'node:fs';
import path from 'node:path';
import type { PlatformName } from '../../shared/domain/platforms';
import { NETWORKS } from '../../shared/networks/network-list';
import { Sandbox } from '../../infra/local/sandbox';
import { loadSimulator } from '../../infra/local/sandbox/load-simulator';
import { importGraph } from '../support/import-graph';
import { fakenet } from './fixtures/fakenet/network';
import { FakenetFake } from './fixtures/fakenet/simulator';

/*
 * A network's sandbox simulator is one file in its own folder, shared/networks/<name>/simulator.ts: the local sandbox
 * (infra/local/sandbox) loads it by the network's name in the registry, so adding one writes no list anywhere. Only
 * the sandbox loads simulator code: no Lambda bundle carries it (test/infra/bundle-graph.test.ts checks the bundles).
 */

const root = path.resolve(__dirname, '../..');
const FAKE = 'fakenet' as PlatformName;
const fixtures = path.join(__dirname, 'fixtures');
/** The simulators' code: the kit they share, and each network's simulator.ts (and the parts it is built of). */
const SIMULATOR_CODE = /^shared\/networks\/(sandbox-kit\/.+|[a-z_]+\/([a-z-]+-)?simulator)\.ts$/;

describe("each registered network's simulator", () => {
  test('is its folder’s simulator.ts, found by its name in the registry', () => {
    for (const { name } of NETWORKS) expect(fs.existsSync(path.join(root, 'shared/networks', name, 'simulator.ts'))).toBe(true);
    const sandbox = new Sandbox();
    sandbox.mount('http://127.0.0.1:9');
    for (const { name } of NETWORKS) expect(sandbox.fake(name, Object)).toBeInstanceOf(Object);
    expect(Object.keys(sandbox.envGroups())).toEqual(NETWORKS.map((d) => d.name));
    // the OAuth networks' sandbox apps, from their simulators' environment
    expect(sandbox.describe().oauth.x).toEqual({ client_id: expect.any(String), sign_in: expect.any(String) });
  });

  test('a network without one is named, with the file to add', () => {
    expect(() => loadSimulator('nosuchnet', fixtures)).toThrow(/nosuchnet has no sandbox simulator: add .*nosuchnet\/simulator\.ts exporting `simulator`/);
    expect(() => new Sandbox([...NETWORKS, { ...fakenet, name: 'nosuchnet' as PlatformName }])).toThrow(/nosuchnet has no sandbox simulator/);
  });
});

describe('a network folder with a simulator.ts, registered by one line', () => {
  const sandbox = new Sandbox([...NETWORKS, fakenet], (name) => (name === FAKE ? loadSimulator(name, fixtures) : loadSimulator(name)));
  let origin = '';
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => { ({ origin, close } = await sandbox.listen()); });
  afterAll(() => close());

  const post = (text: string) => fetch(`${origin}/sandbox/fakenet/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

  test('is mounted under /sandbox/<name>/, points the service at it and shows its accepted credentials', () => {
    expect(sandbox.envGroups()[FAKE]).toEqual({ FAKENET_API_BASE: `${origin}/sandbox/fakenet` });
    expect(sandbox.credentials()[FAKE]).toEqual({ token: 'fk-token' });
    expect(sandbox.fake(FAKE, FakenetFake).url).toBe(`${origin}/sandbox/fakenet`);
    expect(() => sandbox.fake(FAKE, Sandbox)).toThrow(/fakenet simulator is a FakenetFake, not a Sandbox/);
  });

  test('answers at its paths, refuses a text over its limit in its words, and its posts reach the inbox', async () => {
    const ok = await post('hello fakenet');
    expect([ok.status, await ok.json()]).toEqual([201, { id: 'fk-1' }]);
    const long = await post('x'.repeat(21));
    expect([long.status, await long.json()]).toEqual([400, { error: 'text too long' }]);
    expect(sandbox.inbox().filter((e) => e.network === FAKE)).toEqual([expect.objectContaining({ method: 'POST', path: '/posts', text: 'hello fakenet', reply: false })]);
    expect(sandbox.inboxPage()).toContain('hello fakenet');
  });
});

describe('simulator code', () => {
  const graph = importGraph(root, ['shared', 'functions', 'infra', 'bin']);

  test('is imported only by simulator code and the local sandbox, and no module imports a network’s simulator.ts but another simulator', () => {
    const outside: string[] = [];
    for (const [file, edges] of graph) {
      for (const e of edges) {
        if (!e.target || !SIMULATOR_CODE.test(e.target) || SIMULATOR_CODE.test(file)) continue;
        if (file.startsWith('infra/local/sandbox/') && e.target.startsWith('shared/networks/sandbox-kit/')) continue;
        outside.push(`${file} → ${e.target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  test('the local sandbox is imported only by the local runtime', () => {
    const users = [...graph].flatMap(([file, edges]) => edges.filter((e) => e.target?.startsWith('infra/local/sandbox/') && !file.startsWith('infra/local/')).map((e) => `${file} → ${e.target}`));
    expect(users).toEqual([]);
  });
});
