import { createHash } from 'node:crypto';
import type { FakeReply } from './server';

/**
 * The grant bookkeeping shared by the TikTok, YouTube and X fakes: an auto-consenting authorize endpoint (302 straight
 * back to redirect_uri with a code and the state), codes bound to their client, redirect URI and PKCE challenge,
 * access tokens, refresh tokens (rotated or kept), and `revoke()` to end every grant so a refresh fails.
 * Each fake checks its own client authentication and shapes its own answers around these results.
 */

export interface IssuedCode {
  code: string;
  client: string;
  redirect_uri: string;
  scope: string;
  challenge?: string;
  challenge_method?: string;
}

export interface Issued { access_token: string; refresh_token: string }

export type GrantResult = { ok: true; tokens: Issued; scope: string } | { ok: false; error: string; description: string };

export class GrantLedger {
  /** Access tokens the publish API accepts (the fake's fixed test token plus every issued one). */
  readonly accessTokens = new Set<string>();
  readonly codes = new Map<string, IssuedCode>();
  /** Live refresh tokens → the scope they carry. */
  readonly refreshTokens = new Map<string, string>();
  private n = 0;

  /** @param rotate each refresh returns a new refresh token and ends the old one (X); else the same one stays. */
  constructor(private readonly prefix: string, readonly rotate: boolean, fixedToken: string) {
    this.accessTokens.add(fixedToken);
  }

  reset(fixedToken: string): void {
    this.accessTokens.clear();
    this.accessTokens.add(fixedToken);
    this.codes.clear();
    this.refreshTokens.clear();
    this.n = 0;
  }

  /** Ends every grant: issued access tokens stop working and refresh answers invalid_grant (a user revoked the app). */
  revoke(): void {
    for (const t of [...this.accessTokens]) if (t.startsWith(`${this.prefix}-at-`)) this.accessTokens.delete(t);
    this.refreshTokens.clear();
  }

  /**
   * The authorize endpoint, consenting at once: 302 to `redirect_uri?code=…&state=…`. `clientParam` is the query
   * name of the client id (TikTok says client_key). Missing parameters → 400, as the real pages refuse them.
   */
  authorize(url: URL, clientParam: string, scopeSeparator: string): FakeReply {
    const q = url.searchParams;
    const client = q.get(clientParam);
    const redirect = q.get('redirect_uri');
    if (!client || !redirect || q.get('response_type') !== 'code') {
      return { status: 400, body: `missing ${clientParam}, redirect_uri or response_type=code` };
    }
    const code = `${this.prefix}-code-${++this.n}`;
    this.codes.set(code, {
      code, client, redirect_uri: redirect, scope: (q.get('scope') ?? '').split(scopeSeparator).filter(Boolean).join(' '),
      challenge: q.get('code_challenge') ?? undefined, challenge_method: q.get('code_challenge_method') ?? undefined,
    });
    const to = new URL(redirect);
    to.searchParams.set('code', code);
    const state = q.get('state');
    if (state !== null) to.searchParams.set('state', state);
    return { status: 302, headers: { location: to.toString() } };
  }

  /** Code exchange: the code once, for the same client and redirect URI, with the verifier matching its challenge. */
  exchange(code: string, client: string, redirectUri: string, verifier: string | undefined): GrantResult {
    const issued = this.codes.get(code);
    if (!issued) return { ok: false, error: 'invalid_grant', description: 'Authorization code is invalid or expired.' };
    this.codes.delete(code);
    if (issued.client !== client) return { ok: false, error: 'invalid_grant', description: 'Code was issued to another client.' };
    if (issued.redirect_uri !== redirectUri) return { ok: false, error: 'invalid_grant', description: 'redirect_uri does not match.' };
    if (issued.challenge) {
      const expected = issued.challenge_method === 'S256' ? createHash('sha256').update(verifier ?? '').digest('base64url') : verifier;
      if (!verifier || expected !== issued.challenge) return { ok: false, error: 'invalid_grant', description: 'code_verifier does not match the challenge.' };
    }
    return { ok: true, tokens: this.issue(issued.scope), scope: issued.scope };
  }

  /** Refresh: a live refresh token → a new access token (and, when rotating, a new refresh token; the old one dies). */
  refresh(refreshToken: string): GrantResult {
    const scope = this.refreshTokens.get(refreshToken);
    if (scope === undefined) return { ok: false, error: 'invalid_grant', description: 'Token has been expired or revoked.' };
    if (!this.rotate) {
      const access_token = `${this.prefix}-at-${++this.n}`;
      this.accessTokens.add(access_token);
      return { ok: true, tokens: { access_token, refresh_token: refreshToken }, scope };
    }
    this.refreshTokens.delete(refreshToken);
    return { ok: true, tokens: this.issue(scope), scope };
  }

  private issue(scope: string): Issued {
    const access_token = `${this.prefix}-at-${++this.n}`;
    const refresh_token = `${this.prefix}-rt-${this.n}`;
    this.accessTokens.add(access_token);
    this.refreshTokens.set(refresh_token, scope);
    return { access_token, refresh_token };
  }
}

/** A form body (application/x-www-form-urlencoded) as URLSearchParams. */
export const form = (text: string): URLSearchParams => new URLSearchParams(text);

/** The `Authorization: Basic` pair, decoded (RFC 6749 form-decoding of both parts), or undefined. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
}
