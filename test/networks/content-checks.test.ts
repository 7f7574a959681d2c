import { buildRegistry } from '../../shared/networks/registry';
import { NETWORKS } from '../../shared/networks/network-list';
import { networkLimits } from '../../shared/networks/descriptor-limits';
import { config } from '../../shared/config';
import { PLATFORM_NAMES, type PlatformName } from '../../shared/domain/platforms';
import type { PublishContent } from '../../shared/ports/networks';

const limits = networkLimits();
const check = (name: PlatformName, c: PublishContent, credentials: Record<string, string>) => limits.checkContent(name, c, credentials);
const content = (over: Partial<PublishContent>): PublishContent => ({ text: 'hello', media: [], ...over }) as PublishContent;

describe('content checks apart from the send code', () => {
  it('every network has one, and it is the very function its adapter checks with (one definition per limit)', () => {
    const registry = buildRegistry(config());
    expect(NETWORKS.map((d) => d.name).sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const d of NETWORKS) expect(registry[d.name]?.check).toBe(d.check);
  });

  it('they refuse what the network would refuse, before anything is sent', () => {
    expect(check('bluesky', content({ text: 'x'.repeat(301) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(check('bluesky', content({ text: 'short' }), {})).toBeUndefined();
    expect(check('nostr', content({ text: 'x'.repeat(70_000) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(check('youtube', content({ text: 'a video', title: 'Title' }), {})).toMatchObject({ ok: false, code: 'bad_media' });
    expect(check('hashnode', content({ text: 'x'.repeat(110 * 1024), title: 'Long' }), { publication: 'a'.repeat(24) })).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(check('mastodon', content({ text: 'x'.repeat(600) }), { max_characters: '1000' })).toBeUndefined();
    expect(check('mastodon', content({ text: 'x'.repeat(600) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
  });
});

describe('read-back capability apart from the send code', () => {
  it('GET /api/platforms says read_back exactly where the adapter has readBack', () => {
    const registry = buildRegistry(config());
    for (const name of PLATFORM_NAMES) expect([name, limits.readBack(name)]).toEqual([name, typeof registry[name]?.readBack === 'function']);
  });
});
