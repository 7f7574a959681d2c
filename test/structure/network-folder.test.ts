import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig } from '../../shared/config';
import { PLATFORM_NAMES, type PlatformName } from '../../shared/domain/platforms';
import { NETWORKS } from '../../shared/networks/network-list';
import { buildRegistry } from '../../shared/networks/registry';
import { buildVerifyOnlyRegistry } from '../../shared/networks/verifiers';
import { buildOAuthProviders } from '../../shared/networks/oauth-providers';
import { networkLimits } from '../../shared/networks/descriptor-limits';
import { textProblems } from '../../shared/domain/text-length';
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
 * by one line gets its adapter, limits, text rule and configuration keys without touching any other file; its
 * credential check and sign-in provider are imported on first use from shared/networks/network-code.ts, which names
 * their factories (its network.ts picks them there and does not compile until they are; a folder outside
 * shared/networks, as the fake network's, require()s its own).
 */

const root = path.resolve(__dirname, '../..');
const FAKE = 'fakenet' as PlatformName;
/** The registry with one more line: the fake network of test/structure/fixtures/fakenet. */
const withFake = [...NETWORKS, fakenet];
/** The configuration with the fake network's keys (its folder's config-keys.ts): its API base set, its batch size left to the default. */
const cfg = parseConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:9', FAKENET_API_BASE: 'http://127.0.0.1:7/fake' }, withFake);
const content = (over: Partial<PublishContent>): PublishContent => ({ text: 'hello', media: [], ...over }) as PublishContent;

describe('a network folder registered by one line', () => {
  test('publishes through the adapters registry, and verifies and signs in where only those are wired', async () => {
    const registry = buildRegistry(cfg, withFake);
    expect(Object.keys(registry)).toEqual(withFake.map((d) => d.name));
    const { ctx } = testContext({ token: 't' });
    // the link is under FAKENET_API_BASE: its folder's configuration key reached its adapter
    expect(await registry[FAKE]!.publish(content({}), ctx)).toEqual({ ok: true, status: 'published', id: 'fk-1', url: 'http://127.0.0.1:7/fake/fk-1' });
    expect(typeof registry[FAKE]!.delete).toBe('function');
    const verifyOnly = buildVerifyOnlyRegistry(cfg, withFake);
    expect(await verifyOnly[FAKE]!.verify(ctx)).toEqual({ ok: true, handle: '@fake', credentials: { token: 't' } });
    expect(() => verifyOnly[FAKE]!.publish(content({}), ctx)).toThrow(/send code is not wired/);
    expect(await buildOAuthProviders(cfg, withFake)[FAKE]?.authorizeUrl({ app: { clientId: 'c', clientSecret: 's', redirectUri: 'r' }, state: 's1' })).toContain('state=s1');
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

  test('its text rule (limits.ts) is what THE length validator and the content check measure against, read through the port', () => {
    const limits = networkLimits(withFake);
    const rule = limits.textRule(FAKE);
    expect(rule).toEqual({ unit: 'graphemes', limit: 20, thread: true, firstComment: false, title: { unit: 'code_points', limit: 12 } });
    // 20 graphemes fit (a family emoji is one), 21 do not: in a thread post too
    expect(textProblems(FAKE, rule, { text: `${'x'.repeat(19)}👨‍👩‍👧`, thread: ['y'.repeat(21)], title: 't'.repeat(13) }).map((p) => [p.field, p.kind, p.limit]))
      .toEqual([['thread.1', 'too_long', 20], ['title', 'too_long', 12]]);
    expect(limits.checkContent(FAKE, content({ text: 'ok', thread: ['y'.repeat(21)] }), {})).toMatchObject({ ok: false, code: 'text_too_long', error: expect.stringContaining('thread post 1') });
    // the registry without that line has no rule for it
    expect(() => networkLimits().textRule(FAKE)).toThrow(/not in the registry/);
  });

  test('its configuration keys (config-keys.ts) join the configuration schema: parsed, defaulted and refused by name', () => {
    expect(cfg).toMatchObject({ FAKENET_API_BASE: 'http://127.0.0.1:7/fake', FAKENET_BATCH: 3 });
    expect(parseConfig({ FAKENET_BATCH: '5' }, withFake)).toMatchObject({ FAKENET_BATCH: 5 });
    expect(() => parseConfig({ FAKENET_BATCH: 'many' }, withFake)).toThrow(ConfigError);
    expect(() => parseConfig({ FAKENET_API_BASE: 'not a url' }, withFake)).toThrow(/^Invalid environment variable FAKENET_API_BASE="not a url": expected an absolute URL/);
    // the registry without that line does not know its keys
    expect(parseConfig({ FAKENET_BATCH: 'many' })).not.toHaveProperty('FAKENET_BATCH');
  });
});

describe('the registry of networks', () => {
  test("lists exactly the contract's closed list of names, each from its own folder's network.ts", () => {
    expect(NETWORKS.map((d) => d.name).sort()).toEqual([...PLATFORM_NAMES].sort());
    const list = fs.readFileSync(path.join(root, 'shared/networks/network-list.ts'), 'utf8');
    for (const d of NETWORKS) expect(list).toContain(`import { ${d.name} } from './${d.name}/network';`);
  });

  test("each network's configuration keys are named after it (another network's key only where it shares that network's host)", () => {
    const owner = new Map<string, string>();
    for (const d of NETWORKS) for (const key of Object.keys(d.config)) if (key.startsWith(`${d.name.toUpperCase()}_`)) owner.set(key, d.name);
    const strays: string[] = [];
    for (const d of NETWORKS) {
      for (const [key, schema] of Object.entries(d.config)) {
        const by = owner.get(key);
        // a borrowed key is the owner's own zod field, so the merged schema has one definition of it
        if (!by) strays.push(`${d.name}: ${key}`);
        else if (by !== d.name && (NETWORKS.find((n) => n.name === by)!.config as Record<string, unknown>)[key] !== schema) strays.push(`${d.name}: ${key} (not ${by}'s field)`);
      }
    }
    expect(strays).toEqual([]);
    expect(Object.keys(parseConfig({}))).toEqual(expect.arrayContaining(['TELEGRAM_API_BASE', 'MASTODON_POLL_MS', 'NOSTR_DEFAULT_RELAYS']));
  });

  test('no other file builds a table from network folders: outside a folder only the registry and the code loaded on first use import one', () => {
    const graph = importGraph(root, ['shared', 'functions', 'infra', 'bin']);
    const folderOf = (file: string) => /^shared\/networks\/([a-z_]+)\//.exec(file)?.[1];
    const outside: string[] = [];
    for (const [file, edges] of graph) {
      for (const e of edges) {
        const target = e.target && folderOf(e.target);
        // network-list.ts: the networks' facts; network-code.ts: their credential checks and sign-in sides, imported
        // on first use (one chunk a split bundle's start never loads; docs/decisions.md "Network code loaded on first use")
        if (!target || folderOf(file) || file === 'shared/networks/network-list.ts') continue;
        if (file === 'shared/networks/network-code.ts' && /\/(verify-credentials|oauth)\.ts$/.test(e.target!)) continue;
        outside.push(`${file} → ${e.target}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
