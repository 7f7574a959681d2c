import { parseConfig } from '../../shared/config';
import { buildVerifyOnlyRegistry } from '../../shared/networks/verifiers';
import { buildOAuthProviders } from '../../shared/networks/oauth-providers';
import { testContext } from './context';

/*
 * The networks' credential checks and sign-in providers are built without loading any network code: network-code.ts
 * (every network's verify-credentials.ts and oauth.ts) is loaded by the first call that needs it, once.
 */

const mockLoads: string[] = [];
jest.mock('../../shared/networks/network-code', () => {
  mockLoads.push('network-code');
  return jest.requireActual('../../shared/networks/network-code');
});

const cfg = parseConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' });

it('loads the network code at the first credential check or sign-in call, not when the tables are built', async () => {
  const registry = buildVerifyOnlyRegistry(cfg);
  const providers = buildOAuthProviders(cfg);
  expect(Object.keys(registry)).toHaveLength(19);
  expect(providers.x?.pkce).toBe(true);
  expect(typeof providers.linkedin?.refresh).toBe('function');
  expect(providers.facebook?.refresh).toBeUndefined();
  expect(mockLoads).toEqual([]);

  const { ctx } = testContext({});
  ctx.fetch = async () => { throw new TypeError('fetch failed: offline test'); };
  expect(await registry.telegram!.verify(ctx)).toMatchObject({ ok: false });
  expect(mockLoads).toEqual(['network-code']);
  const url = await providers.x!.authorizeUrl({ app: { clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:9/cb' }, state: 'st', codeChallenge: 'ch' });
  expect(new URL(url).searchParams.get('state')).toBe('st');
  expect(mockLoads).toEqual(['network-code']);
});
