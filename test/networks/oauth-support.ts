import type { PlatformName } from '../../shared/domain/platforms';
import type { OAuthApp, OAuthProvider, TokenSet } from '../../shared/ports/oauth';
import type { OAuthFake } from '../../shared/networks/sandbox-kit/oauth-authority';
import { testContext } from './context';

/** The service's app registration at a network fake: the fake's client, the service's callback URL for `network`. */
export function oauthApp(fake: OAuthFake, network: PlatformName): OAuthApp {
  return { clientId: fake.oauth.clientId, clientSecret: fake.oauth.clientSecret, redirectUri: `https://api.example.com/api/oauth/${network}/callback` };
}

/**
 * A sign-in through a fake: its authorize page (auto-consent, 302 back with the code), then the provider's code
 * exchange. `pkce` sends the challenge and the verifier; `headers` go with the authorize request. Throws when the
 * exchange fails.
 */
export async function signInThrough(
  provider: OAuthProvider, app: OAuthApp,
  opts: { state: string; pkce?: { challenge: string; verifier: string }; headers?: Record<string, string> },
): Promise<TokenSet> {
  const res = await fetch(await provider.authorizeUrl({ app, state: opts.state, codeChallenge: opts.pkce?.challenge }), { redirect: 'manual', headers: opts.headers });
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await provider.exchangeCode({ app, code, codeVerifier: opts.pkce?.verifier }, testContext({}).ctx);
  if ('ok' in tokens) throw new Error(`sign-in failed: ${JSON.stringify(tokens)}`);
  return tokens;
}
