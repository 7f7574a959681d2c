import type { FakeReply } from './server';

/**
 * The authorization-server half of an OAuth network fake: an auto-consenting authorize endpoint (302 back to the
 * redirect_uri with a code and the state), single-use codes, access and refresh tokens per grant, optional refresh
 * token rotation, and switches to expire access tokens or revoke every grant (so a refresh fails like a revoked app).
 */
export class OAuthAuthority {
  clientId = 'test-client-id';
  clientSecret = 'test-client-secret';
  /** Issue a new refresh token on every refresh (the old one stops working). */
  rotate = false;
  /** Issue refresh tokens at all (LinkedIn apps without programmatic refresh get none). */
  issueRefresh = true;
  private n = 0;
  private readonly codes = new Map<string, { redirectUri: string; scope: string; grant: number }>();
  private readonly accessTokens = new Map<string, number>();
  private readonly refreshTokens = new Map<string, number>();
  private readonly revoked = new Set<number>();
  /** Authorize requests received, as their query parameters. */
  readonly authorizations: Array<Record<string, string>> = [];

  constructor(private readonly prefix: string) {}

  reset(): void {
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.revoked.clear();
    this.authorizations.length = 0;
    this.rotate = false;
    this.issueRefresh = true;
  }

  /** Answers an authorize request: 302 to redirect_uri?code=…&state=… (consent is automatic). */
  authorize(url: URL): FakeReply {
    const params = Object.fromEntries(url.searchParams);
    this.authorizations.push(params);
    if (params.client_id !== this.clientId) return { status: 400, body: 'unknown client_id' };
    if (!params.redirect_uri) return { status: 400, body: 'missing redirect_uri' };
    const code = `${this.prefix}-code-${++this.n}`;
    this.codes.set(code, { redirectUri: params.redirect_uri, scope: params.scope ?? '', grant: this.n });
    const back = new URL(params.redirect_uri);
    back.searchParams.set('code', code);
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    return { status: 302, headers: { location: back.toString() } };
  }

  /** A code straight away, as if the user had consented (for tests that skip the browser step). */
  codeFor(redirectUri: string, scope = ''): string {
    const code = `${this.prefix}-code-${++this.n}`;
    this.codes.set(code, { redirectUri, scope, grant: this.n });
    return code;
  }

  clientOk(id: string | undefined, secret: string | undefined): boolean {
    return id === this.clientId && secret === this.clientSecret;
  }

  /** Redeems a code once; undefined when unknown, used, or for another redirect_uri. */
  redeem(code: string | undefined, redirectUri: string | undefined): { access: string; refresh?: string; scope: string } | undefined {
    const entry = code ? this.codes.get(code) : undefined;
    if (!entry || entry.redirectUri !== redirectUri) return undefined;
    this.codes.delete(code!);
    return { ...this.tokensFor(entry.grant, true), scope: entry.scope };
  }

  /** Uses a refresh token; undefined when unknown, rotated away or revoked. */
  refresh(token: string | undefined): { access: string; refresh?: string } | undefined {
    const grant = token ? this.refreshTokens.get(token) : undefined;
    if (grant === undefined || this.revoked.has(grant)) return undefined;
    if (this.rotate) this.refreshTokens.delete(token!);
    const tokens = this.tokensFor(grant, this.rotate);
    return { access: tokens.access, refresh: this.rotate ? tokens.refresh : token };
  }

  /** Issues a token outside the code flow (e.g. Facebook's long-lived exchange) on the grant of `from`. */
  exchange(from: string | undefined): string | undefined {
    const grant = from ? this.accessTokens.get(from) : undefined;
    if (grant === undefined || this.revoked.has(grant)) return undefined;
    return this.tokensFor(grant, false).access;
  }

  /** A token bound to the grant of `from` (Page tokens); undefined when `from` is not valid. */
  derived(from: string, label: string): string | undefined {
    const grant = this.accessTokens.get(from);
    if (grant === undefined) return undefined;
    const token = `${this.prefix}-${label}-g${grant}`;
    this.accessTokens.set(token, grant);
    return token;
  }

  valid(token: string | undefined): boolean {
    const grant = token ? this.accessTokens.get(token) : undefined;
    return grant !== undefined && !this.revoked.has(grant);
  }

  /** Every access token issued so far stops working (refresh tokens still work). */
  expireAccessTokens(): void { this.accessTokens.clear(); }

  /** The user removed the app: every grant's tokens, refresh tokens included, stop working. */
  revokeAll(): void {
    for (const g of this.accessTokens.values()) this.revoked.add(g);
    for (const g of this.refreshTokens.values()) this.revoked.add(g);
  }

  private tokensFor(grant: number, newRefresh: boolean): { access: string; refresh?: string } {
    const access = `${this.prefix}-at-${++this.n}`;
    this.accessTokens.set(access, grant);
    if (!this.issueRefresh || !newRefresh) return { access };
    const refresh = `${this.prefix}-rt-${++this.n}`;
    this.refreshTokens.set(refresh, grant);
    return { access, refresh };
  }
}

/** `Authorization: Basic …` → [client_id, client_secret] (form-decoded), or [] when absent. */
export function basicCredentials(header: string | string[] | undefined): [string?, string?] {
  const value = Array.isArray(header) ? header[0] : header;
  const m = /^Basic\s+(.+)$/i.exec(value ?? '');
  if (!m) return [];
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  return i < 0 ? [] : [dec(decoded.slice(0, i)), dec(decoded.slice(i + 1))];
}

/** The parameters of a form-encoded body. */
export const formOf = (text: string): Record<string, string> => Object.fromEntries(new URLSearchParams(text));
