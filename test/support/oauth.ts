import type { PlatformName } from '../../shared/domain/platforms';
import type { OAuthClient, OAuthClients, OAuthProvider, TokenSet } from '../../shared/ports/oauth';
import type { Failure, NetworkAdapter, NetworkContext, PublishOutcome } from '../../shared/ports/networks';
import { classifyStatus, failureFromError, request } from '../../shared/networks/http';
import { OAuthNetworkFake } from '../../shared/networks/sandbox-kit/oauth-network';
import { publishingWorld } from './publishing';
import type { Deps } from '../../shared/app/deps';

/** Fixed client registrations. */
export function staticClients(clients: Partial<Record<PlatformName, OAuthClient>>): OAuthClients {
  return { get: async (platform) => clients[platform] };
}

/**
 * A tiny OAuthProvider + NetworkAdapter for shared/networks/sandbox-kit/oauth-network.ts, so the OAuth framework (state, PKCE,
 * callback, picker, refresh under a lock, async media) is tested without any real network's provider. It can
 * stand in for any OAuth network name.
 */
export function createFakeOAuthProvider(name: PlatformName, o: { authBase: string; apiBase: string; pkce?: boolean }): OAuthProvider {
  const token = async (form: Record<string, string>, ctx: NetworkContext): Promise<TokenSet | Failure> => {
    try {
      const res = await request(ctx, `${o.authBase}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
      const j = res.json as { access_token?: string; refresh_token?: string; expires_in?: number; scope?: string; error?: string; error_description?: string } | undefined;
      if (res.status === 400 && j?.error === 'invalid_grant') return { ok: false, kind: 'reauth', error: j.error_description ?? 'invalid_grant' };
      if (res.status !== 200 || !j?.access_token) return classifyStatus(res, `token endpoint answered ${res.status}: ${res.text.slice(0, 200)}`);
      return { access_token: j.access_token, refresh_token: j.refresh_token, scope: j.scope, ...(j.expires_in ? { expires_at: ctx.now() + j.expires_in * 1000 } : {}) };
    } catch (err) { return failureFromError(err); }
  };
  return {
    name, pkce: o.pkce ?? false,
    async authorizeUrl({ app, state, codeChallenge }) {
      const u = new URL(`${o.authBase}/oauth/authorize`);
      u.search = new URLSearchParams({
        response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, scope: 'post read', state,
        ...(codeChallenge ? { code_challenge: codeChallenge, code_challenge_method: 'S256' } : {}),
      }).toString();
      return u.toString();
    },
    exchangeCode: ({ app, code, codeVerifier }, ctx) => token({
      grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret,
      ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
    }, ctx),
    refresh: (tokens, app, ctx) => token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: app.clientId, client_secret: app.clientSecret }, ctx),
    async accounts(tokens, ctx) {
      try {
        const res = await request(ctx, `${o.apiBase}/me/accounts`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
        if (res.status !== 200) return classifyStatus(res, `accounts answered ${res.status}`);
        return (res.json as { data: Array<{ id: string; handle: string }> }).data.map((a) => ({ id: a.id, handle: a.handle, credentials: { account_id: a.id } }));
      } catch (err) { return failureFromError(err); }
    },
  };
}

export function createFakeOAuthAdapter(name: PlatformName, o: { apiBase: string; resumeAfterSeconds?: number }): NetworkAdapter {
  const auth = (ctx: NetworkContext) => ({ authorization: `Bearer ${ctx.credentials.access_token}` });
  const answer = (id: string, status: string, step: string): PublishOutcome => status === 'processing'
    ? { ok: true, status: 'processing', id, url: `https://fake.example/p/${id}`, resume: { after_seconds: o.resumeAfterSeconds ?? 30, state: { upload_id: id, step } } }
    : { ok: true, status: 'published', id, url: `https://fake.example/p/${id}` };
  return {
    name,
    async verify(ctx) {
      try {
        const res = await request(ctx, `${o.apiBase}/me`, { headers: auth(ctx) });
        return res.status === 200 ? { ok: true, handle: '@fakeuser', credentials: ctx.credentials } : classifyStatus(res, `me answered ${res.status}`);
      } catch (err) { return failureFromError(err); }
    },
    check: (content) => content.text.length > 280 ? { ok: false, kind: 'rejected', code: 'text_too_long', error: 'over 280 characters' } : undefined,
    async publish(content, ctx) {
      try {
        const res = await request(ctx, `${o.apiBase}/posts`, {
          method: 'POST', headers: { 'content-type': 'application/json', ...auth(ctx) },
          body: JSON.stringify({ account_id: ctx.credentials.account_id, text: content.text, media: content.media }),
        });
        if (res.status !== 201) return classifyStatus(res, `posts answered ${res.status}: ${res.text.slice(0, 200)}`);
        const j = res.json as { id: string; status: string };
        return answer(j.id, j.status, '1');
      } catch (err) { return failureFromError(err); }
    },
    async resume(_content, state, ctx) {
      try {
        const res = await request(ctx, `${o.apiBase}/posts/${state.upload_id}`, { headers: auth(ctx) });
        if (res.status !== 200) return classifyStatus(res, `status answered ${res.status}`);
        return answer(state.upload_id, (res.json as { status: string }).status, String(Number(state.step) + 1));
      } catch (err) { return failureFromError(err); }
    },
  };
}

/**
 * The publishing world plus one fake OAuth network registered under the given names (provider, adapter and the
 * service's client registration), e.g. linkedin without PKCE, x with PKCE, facebook with a page picker.
 */
export async function oauthWorld(names: Array<{ name: PlatformName; pkce?: boolean }> = [{ name: 'linkedin' }, { name: 'x', pkce: true }, { name: 'facebook' }]) {
  const w = await publishingWorld();
  const fake = new OAuthNetworkFake();
  await fake.start();
  const deps = w.rebuild((chosen) => registered(chosen, fake, names));
  return { ...w, deps, fake, stop: async () => { await w.stop(); await fake.stop(); } };
}

/** The fake network registered under those names over `chosen` deps' own (tests and the local runtime of the browser test). */
export function registered(chosen: Deps, fake: OAuthNetworkFake, names: Array<{ name: PlatformName; pkce?: boolean }>, opts: { resumeAfterSeconds?: number } = {}): Pick<Deps, 'networks' | 'oauth'> {
  const clients: Partial<Record<PlatformName, { clientId: string; clientSecret: string }>> = {};
  const providers = { ...chosen.oauth.providers };
  const networks = { ...chosen.networks };
  for (const { name, pkce } of names) {
    providers[name] = createFakeOAuthProvider(name, { authBase: fake.url, apiBase: fake.url, pkce });
    networks[name] = createFakeOAuthAdapter(name, { apiBase: fake.url, resumeAfterSeconds: opts.resumeAfterSeconds });
    clients[name] = { clientId: fake.clientId, clientSecret: fake.clientSecret };
  }
  return { networks, oauth: { providers, clients: staticClients(clients) } };
}
