import { buildRegistry } from '../../shared/networks/registry';
import { CONTENT_CHECKS } from '../../shared/networks/content-checks';
import { READ_BACK } from '../../shared/networks/read-back-support';
import { config } from '../../shared/config';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import type { PublishContent } from '../../shared/ports/networks';

const content = (over: Partial<PublishContent>): PublishContent => ({ text: 'hello', media: [], ...over }) as PublishContent;

describe('content checks apart from the send code', () => {
  it('every network has one, and it is the very function its adapter checks with (one definition per limit)', () => {
    const registry = buildRegistry(config());
    expect(Object.keys(CONTENT_CHECKS).sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const name of PLATFORM_NAMES) expect(registry[name]?.check).toBe(CONTENT_CHECKS[name]);
  });

  it('they refuse what the network would refuse, before anything is sent', () => {
    expect(CONTENT_CHECKS.bluesky(content({ text: 'x'.repeat(301) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(CONTENT_CHECKS.bluesky(content({ text: 'short' }), {})).toBeUndefined();
    expect(CONTENT_CHECKS.nostr(content({ text: 'x'.repeat(70_000) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(CONTENT_CHECKS.youtube(content({ text: 'a video', title: 'Title' }), {})).toMatchObject({ ok: false, code: 'bad_media' });
    expect(CONTENT_CHECKS.hashnode(content({ text: 'x'.repeat(110 * 1024), title: 'Long' }), { publication: 'a'.repeat(24) })).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(CONTENT_CHECKS.mastodon(content({ text: 'x'.repeat(600) }), { max_characters: '1000' })).toBeUndefined();
    expect(CONTENT_CHECKS.mastodon(content({ text: 'x'.repeat(600) }), {})).toMatchObject({ ok: false, code: 'text_too_long' });
  });
});

describe('read-back capability apart from the send code', () => {
  it('GET /api/platforms says read_back exactly where the adapter has readBack', () => {
    const registry = buildRegistry(config());
    expect(Object.keys(READ_BACK).sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const name of PLATFORM_NAMES) expect([name, READ_BACK[name]]).toEqual([name, typeof registry[name]?.readBack === 'function']);
  });
});
