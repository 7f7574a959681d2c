import fs from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../../shared/config';
import { defineNetwork } from '../../shared/networks/descriptor';
import { NETWORKS } from '../../shared/networks/network-list';
import type { PlatformName } from '../../shared/domain/platforms';
import type { OAuthProvider } from '../../shared/ports/oauth';
import { testContext } from './context';

/*
 * Each network's credential check and sign-in side are loaded by their first call from network-code.ts, where its
 * network.ts picks its factories: every network's loads and answers, and a sign-in provider whose facts differ from its
 * network.ts's is refused.
 */

const cfg = parseConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
const app = { clientId: 'client-7', clientSecret: 'secret', redirectUri: 'http://127.0.0.1:9/api/oauth/callback' };

/** A context whose every request fails at once: no test here reaches any network. */
function offline() {
  const { ctx } = testContext({});
  const requested: string[] = [];
  ctx.fetch = async (input) => { requested.push(String(input)); throw new TypeError('fetch failed: offline test'); };
  return { ctx, requested };
}

describe("each network's code, loaded by its first call", () => {
  test.each(NETWORKS.map((d) => [d.name, d] as const))('%s: its credential check loads and refuses empty credentials', async (name, d) => {
    const verifier = d.verifier(cfg);
    expect(verifier.name).toBe(name);
    expect(await verifier.verify(offline().ctx)).toMatchObject({ ok: false, error: expect.any(String) });
  });

  const oauthNetworks = NETWORKS.filter((d) => d.oauth);
  test.each(oauthNetworks.map((d) => [d.name, d] as const))('%s: its sign-in provider loads, says what its network.ts says, and builds the authorize URL', async (name, d) => {
    const provider = d.oauth!(cfg);
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-42', codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' }));
    expect(url.protocol).toBe('https:');
    expect(url.searchParams.get('state')).toBe('st-42');
    expect(url.searchParams.get('client_id') ?? url.searchParams.get('client_key')).toBe('client-7');
    expect(provider.name).toBe(name);
  });

  test('the OAuth networks are the ones whose folder has an oauth.ts', () => {
    const folders = path.join(__dirname, '../../shared/networks');
    const withOAuth = fs.readdirSync(folders).filter((f) => fs.existsSync(path.join(folders, f, 'oauth.ts')));
    expect(oauthNetworks.map((d) => d.name).sort()).toEqual(withOAuth.sort());
    expect(withOAuth).toHaveLength(10);
  });
});

describe('a network.ts whose sign-in facts differ from its provider', () => {
  const provider = (over: Partial<OAuthProvider>): OAuthProvider => ({
    name: 'fakenet' as PlatformName, pkce: true,
    authorizeUrl: async ({ state }) => `https://fakenet.invalid/authorize?state=${state}`,
    exchangeCode: async () => ({ access_token: 'a' }),
    accounts: async () => [],
    ...over,
  });
  const defined = (signIn: { pkce: boolean; renews: boolean }, real: OAuthProvider) => defineNetwork({
    name: 'fakenet' as PlatformName, displayName: 'Fake Net', icon: { mark: 'Fk', color: '#5a2d82' }, check: () => undefined,
    text: { unit: 'graphemes', limit: 20, thread: false, firstComment: false }, readBack: false,
    adapter: () => undefined,
    verifier: () => () => ({ name: 'fakenet' as PlatformName, verify: async () => ({ ok: false, kind: 'rejected', code: 'rejected', error: 'no' }) }),
    oauth: { ...signIn, provider: () => () => real },
  }).oauth!(cfg);

  it('is refused at the first call, naming both', async () => {
    await expect(defined({ pkce: false, renews: false }, provider({})).authorizeUrl({ app, state: 's' }))
      .rejects.toThrow('fakenet: its network.ts says pkce false, renews false; its provider says pkce true, renews false');
    const renewing = defined({ pkce: true, renews: true }, provider({}));
    expect(typeof renewing.refresh).toBe('function');
    await expect(renewing.accounts({ access_token: 'a' }, offline().ctx)).rejects.toThrow('fakenet: its network.ts says pkce true, renews true; its provider says pkce true, renews false');
  });

  it('answers through the loaded provider when they agree', async () => {
    const p = defined({ pkce: true, renews: true }, provider({ refresh: async () => ({ access_token: 'renewed' }) }));
    expect(await p.authorizeUrl({ app, state: 's9' })).toBe('https://fakenet.invalid/authorize?state=s9');
    expect(await p.refresh!({ access_token: 'old', refresh_token: 'r' }, app, offline().ctx)).toEqual({ access_token: 'renewed' });
  });
});
