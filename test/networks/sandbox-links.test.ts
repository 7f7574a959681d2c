import { withSandboxLinks } from '../../shared/networks/sandbox-links';
import type { NetworkAdapter, NetworkContext } from '../../shared/ports/networks';

const ctx = { credentials: {} } as unknown as NetworkContext;
const adapter: NetworkAdapter = {
  name: 'mastodon',
  verify: async () => ({ ok: true, handle: 'a', credentials: {} }),
  check: () => undefined,
  publish: async () => ({ ok: true, status: 'published', id: '1', url: 'https://mastodon.example/@a/1' }),
  readBack: async () => ({ state: 'found', id: '1', url: 'https://mastodon.example/@a/1' }),
};

describe('sandbox links', () => {
  it('keeps read-back and links a post it found to the sandbox inbox, as a published one', async () => {
    const wrapped = withSandboxLinks({ mastodon: adapter }, 'http://127.0.0.1:3000', new Set(['mastodon']))['mastodon']!;
    expect(wrapped.readBack).toBeDefined();
    await expect(wrapped.readBack!({ text: 'hi' } as never, { text: 'hi', since: 0, until: 1 }, ctx))
      .resolves.toEqual({ state: 'found', id: '1', url: 'http://127.0.0.1:3000/dev/sandbox/inbox#mastodon' });
    await expect(wrapped.publish({ text: 'hi' } as never, ctx)).resolves.toMatchObject({ url: 'http://127.0.0.1:3000/dev/sandbox/inbox#mastodon' });
  });

  it('leaves an adapter without read-back without it', () => {
    const { readBack: _omit, ...plain } = adapter;
    expect(withSandboxLinks({ mastodon: plain }, 'http://127.0.0.1:3000', new Set(['mastodon']))['mastodon']!.readBack).toBeUndefined();
  });
});
