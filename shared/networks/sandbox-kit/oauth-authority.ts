import { createHash } from 'node:crypto';
import { type FakeReply, NetworkSimulator, type RecordedRequest } from './fake-server';

/**
 * The OAuth half shared by the network fakes (TikTok, X, YouTube, LinkedIn, Reddit, Facebook / Instagram):
 * - OAuthAuthority, the authorization server: an auto-consenting authorize endpoint (302 back to the redirect_uri with
 *   a code and the state), single-use codes bound to their client, redirect URI and PKCE challenge, access and refresh
 *   tokens per grant (refresh tokens rotated or kept), tokens derived from a grant (Page tokens), a standing test token,
 *   and switches to expire access tokens or revoke every grant (so a refresh fails like a revoked app).
 * - OAuthFake, the base of each network fake: the loopback server, request lookups, the failNext queue and the bearer
 *   check. Each fake checks its own client authentication (`clientOk`) and shapes its own answers around the results.
 */

export interface AuthorityOptions {
  /** Token prefix: codes `<prefix>-code-N`, access tokens `<prefix>-at-N`, refresh tokens `<prefix>-rt-N`. */
  prefix: string;
  clientId?: string;
  clientSecret?: string;
  /** Query name of the client id at the authorize endpoint (TikTok says client_key). */
  clientParam?: string;
  /** Separator of the scopes in the authorize request (TikTok: ','); grants keep them space-separated. */
  scopeSeparator?: string;
  /** Each refresh returns a new refresh token and ends the old one (X); else the same one stays. */
  rotate?: boolean;
  /** A fixed access token valid without a sign-in, whatever happens to the grants (for adapter tests). */
  standingToken?: string;
}

/** What a code exchange or a refresh gives: tokens and the grant's scope, or an OAuth error and its description. */
export type TokenResult =
  | { ok: true; access_token: string; refresh_token?: string; scope: string }
  | { ok: false; error: string; description: string };

interface Grant { id: number; scope: string; revoked: boolean }
interface IssuedCode { grant: Grant; client: string; redirectUri: string; challenge?: string; challengeMethod?: string }

const invalidGrant = (description: string): TokenResult => ({ ok: false, error: 'invalid_grant', description });

export class OAuthAuthority {
  clientId: string;
  clientSecret: string;
  /** Issue a new refresh token on every refresh (the old one stops working). */
  rotate: boolean;
  /** Issue refresh tokens at all (LinkedIn apps without programmatic refresh get none). */
  issueRefresh = true;
  readonly standingToken?: string;
  /** Authorize requests received, as their query parameters. */
  readonly authorizations: Array<Record<string, string>> = [];
  private n = 0;
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();

  constructor(private readonly options: AuthorityOptions) {
    this.clientId = options.clientId ?? 'test-client-id';
    this.clientSecret = options.clientSecret ?? 'test-client-secret';
    this.rotate = options.rotate ?? false;
    this.standingToken = options.standingToken;
  }

  private get prefix(): string { return this.options.prefix; }

  reset(): void {
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.authorizations.length = 0;
    this.rotate = this.options.rotate ?? false;
    this.issueRefresh = true;
    this.n = 0;
  }

  /**
   * Answers an authorize request, consenting at once: 302 to `redirect_uri?code=…&state=…`. An unknown client, a
   * missing redirect_uri or a response_type other than code → 400, as the real pages refuse them.
   */
  authorize(url: URL): FakeReply {
    const params = Object.fromEntries(url.searchParams);
    this.authorizations.push(params);
    const clientParam = this.options.clientParam ?? 'client_id';
    if (params[clientParam] !== this.clientId) return { status: 400, body: `unknown ${clientParam}` };
    if (!params.redirect_uri || params.response_type !== 'code') return { status: 400, body: 'missing redirect_uri or response_type=code' };
    const scope = (params.scope ?? '').split(this.options.scopeSeparator ?? ' ').filter(Boolean).join(' ');
    const code = this.newCode({ client: this.clientId, redirectUri: params.redirect_uri, challenge: params.code_challenge, challengeMethod: params.code_challenge_method }, scope);
    const back = new URL(params.redirect_uri);
    back.searchParams.set('code', code);
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    return { status: 302, headers: { location: back.toString() } };
  }

  /** A code straight away, as if the user had consented (for tests that skip the browser step). */
  codeFor(redirectUri: string, scope = ''): string {
    return this.newCode({ client: this.clientId, redirectUri }, scope);
  }

  /** The access token of a fresh grant, as after a sign-in (for adapter tests that skip it). */
  grantToken(): string {
    const t = this.redeem(this.codeFor('https://x.test/cb'), { client: this.clientId, redirectUri: 'https://x.test/cb' });
    if (!t.ok) throw new Error(t.description);
    return t.access_token;
  }

  clientOk(id: string | undefined, secret: string | undefined): boolean {
    return id === this.clientId && secret === this.clientSecret;
  }

  /** Code exchange: the code once, for the same client and redirect URI, with the verifier matching its challenge. */
  redeem(code: string | undefined, req: { client: string | undefined; redirectUri: string | undefined; verifier?: string }): TokenResult {
    const issued = code ? this.codes.get(code) : undefined;
    if (!issued) return invalidGrant('Authorization code is invalid or expired.');
    this.codes.delete(code!);
    if (issued.client !== req.client) return invalidGrant('Code was issued to another client.');
    if (issued.redirectUri !== req.redirectUri) return invalidGrant('redirect_uri does not match.');
    if (issued.challenge) {
      const { verifier } = req;
      const expected = issued.challengeMethod === 'S256' ? createHash('sha256').update(verifier ?? '').digest('base64url') : verifier;
      if (!verifier || expected !== issued.challenge) return invalidGrant('code_verifier does not match the challenge.');
    }
    return { ok: true, ...this.issue(issued.grant), scope: issued.grant.scope };
  }

  /** Refresh: a live refresh token → a new access token (and, when rotating, a new refresh token; the old one dies). */
  refresh(token: string | undefined): TokenResult {
    const grant = token ? this.refreshTokens.get(token) : undefined;
    if (!grant || grant.revoked) return invalidGrant('Token has been expired or revoked.');
    if (!this.rotate) return { ok: true, access_token: this.newAccess(grant), refresh_token: token!, scope: grant.scope };
    this.refreshTokens.delete(token!);
    return { ok: true, ...this.issue(grant), scope: grant.scope };
  }

  /** A token request by its form's grant_type: the code exchange or a refresh; undefined for any other grant type. */
  tokenRequest(form: Record<string, string>, client = form.client_id): TokenResult | undefined {
    if (form.grant_type === 'authorization_code') return this.redeem(form.code, { client, redirectUri: form.redirect_uri, verifier: form.code_verifier });
    if (form.grant_type === 'refresh_token') return this.refresh(form.refresh_token);
    return undefined;
  }

  /** Issues a token outside the code flow (e.g. Facebook's long-lived exchange) on the grant of `from`. */
  exchange(from: string | undefined): string | undefined {
    const grant = from ? this.accessTokens.get(from) : undefined;
    return grant && !grant.revoked ? this.newAccess(grant) : undefined;
  }

  /** A token bound to the grant of `from` (Page tokens); undefined when `from` is not valid. */
  derived(from: string, label: string): string | undefined {
    const grant = this.accessTokens.get(from);
    if (!grant) return undefined;
    const token = `${this.prefix}-${label}-g${grant.id}`;
    this.accessTokens.set(token, grant);
    return token;
  }

  /** The standing token, or an access token of a live grant. */
  valid(token: string | undefined): boolean {
    if (token !== undefined && token === this.standingToken) return true;
    const grant = token ? this.accessTokens.get(token) : undefined;
    return grant !== undefined && !grant.revoked;
  }

  /** Every access token issued so far stops working (refresh tokens and the standing token still work). */
  expireAccessTokens(): void { this.accessTokens.clear(); }

  /** The user removed the app: every grant's tokens, refresh tokens included, stop working (the standing token stays). */
  revokeAll(): void {
    for (const g of this.accessTokens.values()) g.revoked = true;
    for (const g of this.refreshTokens.values()) g.revoked = true;
  }

  private newCode(entry: Omit<IssuedCode, 'grant'>, scope: string): string {
    const id = ++this.n;
    const code = `${this.prefix}-code-${id}`;
    this.codes.set(code, { ...entry, grant: { id, scope, revoked: false } });
    return code;
  }

  private newAccess(grant: Grant): string {
    const access = `${this.prefix}-at-${++this.n}`;
    this.accessTokens.set(access, grant);
    return access;
  }

  /** An access token and, unless refresh is off, a refresh token with the same number. */
  private issue(grant: Grant): { access_token: string; refresh_token?: string } {
    const access_token = this.newAccess(grant);
    if (!this.issueRefresh) return { access_token };
    const refresh_token = `${this.prefix}-rt-${this.n}`;
    this.refreshTokens.set(refresh_token, grant);
    return { access_token, refresh_token };
  }
}

/** A reply a test queues for one route, or a handler computing it. */
export type FakeRoute = (req: RecordedRequest) => FakeReply | Promise<FakeReply>;

/**
 * The base of an OAuth network fake: the loopback server answering through `route()`, the authority, request lookups
 * by "METHOD /path", `failNext(route, reply)` (a reply played once for that route: the fake's route() asks
 * `playQueued`), `revoke()` and the bearer check.
 */
export abstract class OAuthFake extends NetworkSimulator {
  abstract readonly oauth: OAuthAuthority;
  private readonly queued = new Map<string, FakeRoute[]>();
  /** Counter for the ids a fake hands out; back to 0 on reset. */
  protected n = 0;

  get clientId(): string { return this.oauth.clientId; }
  get clientSecret(): string { return this.oauth.clientSecret; }
  /** "METHOD /path" of each API request (media downloads left out), in order. */
  get calls(): string[] { return this.requests.filter((r) => !r.path.startsWith('/media/')).map((r) => `${r.method} ${this.pathOf(r)}`); }
  find(method: string, path: string): RecordedRequest[] { return this.requests.filter((r) => r.method === method && this.pathOf(r) === path); }
  /** The URL of a file served under /media/ (see serveMedia). */
  mediaUrl(name: string): string { return `${this.url}/media/${name}`; }

  override reset(): void {
    super.reset();
    this.queued.clear();
    this.oauth.reset();
    this.n = 0;
  }

  /** The user removed the app: every grant ends, so a refresh fails. */
  revoke(): void { this.oauth.revokeAll(); }

  failNext(route: string, reply: FakeReply | FakeRoute): void {
    const list = this.queued.get(route) ?? [];
    list.push(typeof reply === 'function' ? reply : () => reply);
    this.queued.set(route, list);
  }

  /** The path calls and find() name a request by (FacebookFake leaves the version prefix out). */
  protected pathOf(req: RecordedRequest): string { return req.path; }

  /** The reply failNext queued for this route key, taken off the queue; undefined when none is queued. */
  protected playQueued(key: string, req: RecordedRequest): FakeReply | Promise<FakeReply> | undefined {
    return this.queued.get(key)?.shift()?.(req);
  }

  /** Whether the request carries `Authorization: Bearer <a valid access token>`. */
  protected bearerOk(req: RecordedRequest): boolean {
    const auth = String(req.headers.authorization ?? '');
    return auth.startsWith('Bearer ') && this.oauth.valid(auth.slice(7));
  }
}

/** `GET /media/<name>` from a fake's files (404 when unknown); undefined for any other request. */
export function serveMedia(req: RecordedRequest, files: Map<string, { type: string; bytes: Buffer }>): FakeReply | undefined {
  if (req.method !== 'GET' || !req.path.startsWith('/media/')) return undefined;
  const f = files.get(req.path.slice('/media/'.length));
  return f ? { status: 200, headers: { 'content-type': f.type }, body: f.bytes } : { status: 404, body: 'not found' };
}

/** `Authorization: Basic …` → [client_id, client_secret] (RFC 6749 form-decoded), or [] when absent. */
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
