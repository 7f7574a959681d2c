import { createHash } from 'node:crypto';
import { type FakeReply, NetworkSimulator, type RecordedRequest } from './fake-server';

export interface FakeOAuthAccount { id: string; handle: string }
interface Grant { client_id: string; redirect_uri: string; challenge?: string; used: boolean }
interface Token { account: 'user'; expires_at: number; refresh: string }

/**
 * A loopback OAuth 2.0 network (authorization code + PKCE S256 + refresh tokens) with a tiny posting API, for the
 * framework's tests. Its authorize page signs the user in at once and redirects back to redirect_uri (as a
 * browser would after the user clicks "Allow"); `deny` makes it answer error=access_denied instead.
 * - GET  /oauth/authorize?client_id&redirect_uri&state[&code_challenge&code_challenge_method=S256] → 302 back
 * - POST /oauth/token (form): authorization_code (checks client, redirect_uri, code once, S256(verifier)) or
 *   refresh_token (rotates; invalid_grant once `revoke()` was called)
 * - GET  /me/accounts → the accounts this sign-in can post as; GET /me → the user
 * - POST /posts {account_id, text, media[]} → published, or processing for `processingPolls` polls when media has a video
 * - GET  /posts/:id → {status: processing | published}
 * - GET  /media/<name>.mp4 | .png → a small public media file (for posts with media)
 */
export class OAuthNetworkFake extends NetworkSimulator {
  clientId = 'fake-client-id';
  clientSecret = 'fake-client-secret';
  accounts: FakeOAuthAccount[] = [{ id: 'acct-1', handle: '@fakeuser' }];
  /** Lifetime of issued access tokens (s). */
  expiresIn = 3600;
  /** Delay of the token endpoint's refresh answer (ms), to widen race windows. */
  refreshDelayMs = 0;
  /** false: a refresh answers no refresh_token and the one sent stays valid (networks whose refresh tokens do not roll). */
  rotateRefreshTokens = true;
  deny = false;
  /** Polls a video post stays processing. */
  processingPolls = 0;
  /** Answer the next N posts with 401 (a token the network no longer accepts). */
  rejectNextPosts = 0;
  private readonly grants = new Map<string, Grant>();
  private readonly tokens = new Map<string, Token>();
  private readonly refreshTokens = new Set<string>();
  private readonly posts = new Map<string, { polls: number; text: string }>();
  private revoked = false;
  private n = 0;

  /** Token endpoint calls of one grant type. */
  tokenCalls(grant: 'authorization_code' | 'refresh_token'): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/oauth/token' && new URLSearchParams(r.text).get('grant_type') === grant);
  }
  get postCalls(): RecordedRequest[] { return this.requests.filter((r) => r.method === 'POST' && r.path === '/posts'); }
  /** The user removed the app: refresh tokens stop working and access tokens are refused. */
  revoke(): void { this.revoked = true; this.tokens.clear(); }
  /** Makes every access token issued so far expired at the network. */
  expireAccessTokens(): void { for (const t of this.tokens.values()) t.expires_at = 0; }
  override reset(): void {
    super.reset();
    this.revoked = false; this.deny = false; this.processingPolls = 0; this.refreshDelayMs = 0; this.rejectNextPosts = 0; this.expiresIn = 3600; this.rotateRefreshTokens = true;
    this.accounts = [{ id: 'acct-1', handle: '@fakeuser' }];
  }

  private issue(): Record<string, unknown> {
    const access = `at-${++this.n}-${Math.random().toString(36).slice(2)}`;
    const refresh = `rt-${this.n}-${Math.random().toString(36).slice(2)}`;
    this.tokens.set(access, { account: 'user', expires_at: Date.now() + this.expiresIn * 1000, refresh });
    this.refreshTokens.add(refresh);
    return { access_token: access, token_type: 'bearer', expires_in: this.expiresIn, refresh_token: refresh, scope: 'post read' };
  }

  private bearer(req: RecordedRequest): Token | undefined {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const t = token ? this.tokens.get(token) : undefined;
    return t && t.expires_at > Date.now() ? t : undefined;
  }

  protected async route(req: RecordedRequest): Promise<FakeReply> {
    if (req.method === 'GET' && req.path === '/oauth/authorize') {
      const q = req.url.searchParams;
      const redirect = new URL(q.get('redirect_uri') ?? 'http://invalid.test/');
      if (q.get('client_id') !== this.clientId) return { status: 400, body: 'unknown client_id' };
      if (this.deny) {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('error_description', 'The user denied access');
      } else {
        const code = `code-${++this.n}`;
        if (q.get('code_challenge') && q.get('code_challenge_method') !== 'S256') return { status: 400, body: 'S256 only' };
        this.grants.set(code, { client_id: this.clientId, redirect_uri: redirect.toString(), challenge: q.get('code_challenge') ?? undefined, used: false });
        redirect.searchParams.set('code', code);
      }
      redirect.searchParams.set('state', q.get('state') ?? '');
      return { status: 302, headers: { location: redirect.toString() }, body: '' };
    }
    if (req.method === 'POST' && req.path === '/oauth/token') {
      const f = new URLSearchParams(req.text);
      if (f.get('client_id') !== this.clientId || f.get('client_secret') !== this.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
      if (f.get('grant_type') === 'authorization_code') {
        const grant = this.grants.get(f.get('code') ?? '');
        if (!grant || grant.used || grant.redirect_uri !== f.get('redirect_uri')) return { status: 400, body: { error: 'invalid_grant', error_description: 'unknown or used code' } };
        grant.used = true;
        if (grant.challenge) {
          const verifier = f.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return { status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier does not match' } };
        }
        return { body: this.issue() };
      }
      if (f.get('grant_type') === 'refresh_token') {
        if (this.refreshDelayMs) await new Promise((r) => setTimeout(r, this.refreshDelayMs));
        const rt = f.get('refresh_token') ?? '';
        if (this.revoked || !this.refreshTokens.has(rt)) return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
        if (!this.rotateRefreshTokens) {
          const { refresh_token: _kept, ...rest } = this.issue();
          return { body: rest };
        }
        this.refreshTokens.delete(rt);
        return { body: this.issue() };
      }
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    if (req.method === 'GET' && req.path.startsWith('/media/')) {
      return { headers: { 'content-type': req.path.endsWith('.mp4') ? 'video/mp4' : 'image/png' }, body: Buffer.alloc(2048, 1) };
    }
    const t = this.bearer(req);
    if (!t) return { status: 401, body: { error: 'invalid_token' } };
    if (req.method === 'GET' && req.path === '/me') return { body: { id: 'user-1', name: 'fakeuser' } };
    if (req.method === 'GET' && req.path === '/me/accounts') return { body: { data: this.accounts } };
    if (req.method === 'POST' && req.path === '/posts') {
      if (this.rejectNextPosts > 0) { this.rejectNextPosts--; return { status: 401, body: { error: 'invalid_token' } }; }
      const body = req.json as { account_id: string; text: string; media: Array<{ kind: string }> };
      const id = `post-${++this.n}`;
      const video = body.media?.some((m) => m.kind === 'video');
      this.posts.set(id, { polls: video ? this.processingPolls : 0, text: body.text });
      return { status: 201, body: { id, status: video && this.processingPolls > 0 ? 'processing' : 'published' } };
    }
    const m = /^\/posts\/([\w-]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const p = this.posts.get(m[1]);
      if (!p) return { status: 404, body: { error: 'not found' } };
      if (p.polls > 0) { p.polls--; return { body: { id: m[1], status: 'processing' } }; }
      return { body: { id: m[1], status: 'published' } };
    }
    return { status: 404, body: { error: 'no route' } };
  }
}
