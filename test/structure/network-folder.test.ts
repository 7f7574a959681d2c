import fs from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../../shared/config';
import { PLATFORM_NAMES, type PlatformName } from '../../shared/domain/platforms';
import { NETWORKS } from '../../shared/networks/network-list';
import { buildRegistry } from '../../shared/networks/registry';
import { buildVerifyOnlyRegistry } from '../../shared/networks/verifiers';
import { buildOAuthProviders } from '../../shared/networks/oauth-providers';
import { networkLimits } from '../../shared/networks/descriptor-limits';
import { displayName } from '../../shared/http/pages/connect-page';
import { networkColor } from '../../shared/http/network-icons';
import { accountNoun } from '../../shared/http/pages/oauth-result';
import type { PublishContent } from '../../shared/ports/networks';
import { testContext } from '../networks/context';
import { importGraph } from '../support/import-graph';
import { fakenet } from './fixtures/fakenet/network';

/*
 * One folder plus one line: a network is its folder under shared/networks/ (network.ts exports its descriptor) and one
 * line in shared/networks/network-list.ts. Every table of networks is built from that list, so a network registered
 * by one line gets its adapter, credential check, sign-in provider and limits without touching any other file.
 */

const root = path.resolve(__dirname, '../..');
const FAKE = 'fakenet' as PlatformName;
/** The registry with one more line: the fake network of test/structure/fixtures/fakenet. */
const withFake = [...NETWORKS, fakenet];
const cfg = parseConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
const content = (over: Partial<PublishContent>): PublishContent => ({ text: 'hello', media: [], ...over }) as PublishContent;

describe('a network folder registered by one line', () => {
  test('publishes through the adapters registry, and verifies and signs in where only those are wired', async () => {
    const registry = buildRegistry(cfg, withFake);
    expect(Object.keys(registry)).toEqual(withFake.map((d) => d.name));
    const { ctx } = testContext({ token: 't' });
    expect(await registry[FAKE]!.publish(content({}), ctx)).toEqual({ ok: true, status: 'published', id: 'fk-1', url: 'http://127.0.0.1:9/fk-1' });
    expect(typeof registry[FAKE]!.delete).toBe('function');
    const verifyOnly = buildVerifyOnlyRegistry(cfg, withFake);
    expect(await verifyOnly[FAKE]!.verify(ctx)).toEqual({ ok: true, handle: '@fake', credentials: { token: 't' } });
    expect(() => verifyOnly[FAKE]!.publish(content({}), ctx)).toThrow(/send code is not wired/);
    expect(buildOAuthProviders(cfg, withFake)[FAKE]?.authorizeUrl({ app: { clientId: 'c', clientSecret: 's', redirectUri: 'r' }, state: 's1' })).toContain('state=s1');
  });

  test('its limits, media rules, delete / edit / read-back facts, post links and post options reach use cases through the NetworkLimits port, its name, badge and account noun the pages', () => {
    const limits = networkLimits(withFake);
    expect(limits.checkContent(FAKE, content({ text: 'x'.repeat(21) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(limits.checkContent(FAKE, content({ text: 'x'.repeat(20) }), {})).toBeUndefined();
    expect(limits.checkMedia(FAKE, [{ url: 'https://a.example/i.png', kind: 'image', alt: 'eleven char' }])).toMatchObject({ ok: false, code: 'bad_media' });
    expect(limits.checkMedia(FAKE, [{ url: 'https://a.example/i.gif', kind: 'image', content_type: 'image/gif' }])).toMatchObject({ ok: false, code: 'bad_media' });
    expect(limits.manage(FAKE)).toEqual({ delete: true, edit: false });
    expect(limits.readBack(FAKE)).toBe(true);
    expect([limits.postRef(FAKE)?.names('fk-12'), limits.postRef(FAKE)?.names('https://x.com/a/status/1')]).toEqual([true, false]);
    expect([limits.optionNetworks('poll'), limits.optionNetworks('thread')]).toEqual([['x', FAKE], ['bluesky', 'mastodon', 'x', FAKE]]);
    expect(limits.optionNetworks('story')).not.toContain(FAKE);
    // the registry without that line knows nothing of it
    expect([displayName(FAKE, withFake), displayName(FAKE)]).toEqual(['Fake Net', FAKE]);
    expect([networkColor(FAKE, withFake), networkColor(FAKE)]).toEqual(['#5a2d82', '#4a4a4a']);
    expect([accountNoun(FAKE, withFake), accountNoun(FAKE)]).toEqual(['fake page', 'account']);
    expect(() => networkLimits().manage(FAKE)).toThrow(/not in the registry/);
  });
});

describe('the registry of networks', () => {
  test("lists exactly the contract's closed list of names, each from its own folder's network.ts", () => {
    expect(NETWORKS.map((d) => d.name).sort()).toEqual([...PLATFORM_NAMES].sort());
    const list = fs.readFileSync(path.join(root, 'shared/networks/network-list.ts'), 'utf8');
    for (const d of NETWORKS) expect(list).toContain(`import { ${d.name} } from './${d.name}/network';`);
  });

  test('no other file builds a table from network folders: outside a folder only the registry imports one', () => {
    const graph = importGraph(root, ['shared', 'functions', 'infra', 'bin']);
    const folderOf = (file: string) => /^shared\/networks\/([a-z_]+)\//.exec(file)?.[1];
    const outside: string[] = [];
    for (const [file, edges] of graph) {
      for (const e of edges) {
        const target = e.target && folderOf(e.target);
        if (!target || folderOf(file) || file === 'shared/networks/network-list.ts') continue;
        outside.push(`${file} → ${e.target}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
