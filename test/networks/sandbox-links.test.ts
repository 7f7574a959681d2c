import { withSandboxLinks } from '../../shared/networks/sandbox-links';
import type { NetworkAdapter, NetworkContext, PublishContent } from '../../shared/ports/networks';

/** Sandbox mode wraps every adapter; what the adapter can do (resume, read back) must survive the wrapping. */
const adapter = (readBack?: NetworkAdapter['readBack']): NetworkAdapter => ({
  name: 'mastodon',
  verify: async () => ({ handle: '@a', label: 'a' }) as never,
  check: () => undefined,
  publish: async () => ({ ok: true, status: 'published', id: '1', url: 'https://mastodon.example/@a/1' }),
  ...(readBack ? { readBack } : {}),
});
const content = { text: 'hi', media: [], thread: [], send_key: 'k' } as PublishContent;
const ctx = (instance: string) => ({ credentials: { instance_url: instance, access_token: 't' } }) as unknown as NetworkContext;
const query = { text: 'hi', since: 0, until: 1 };

it('keeps read-back in sandbox mode; a post found in the sandbox links to its inbox, one found elsewhere keeps its URL', async () => {
  const found = async () => ({ state: 'found' as const, id: '7', url: 'https://mastodon.example/@a/7' });
  const wrapped = withSandboxLinks({ mastodon: adapter(found) }, 'http://localhost:3000', new Set());
  expect(await wrapped.mastodon!.readBack!(content, query, ctx('http://localhost:3000/sandbox/mastodon'))).toEqual({ state: 'found', id: '7', url: 'http://localhost:3000/dev/sandbox/inbox#mastodon' });
  expect(await wrapped.mastodon!.readBack!(content, query, ctx('https://mastodon.example'))).toEqual({ state: 'found', id: '7', url: 'https://mastodon.example/@a/7' });
  expect(withSandboxLinks({ mastodon: adapter() }, 'http://localhost:3000', new Set()).mastodon!.readBack).toBeUndefined();
});
