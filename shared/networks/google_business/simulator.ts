import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { formOf, OAuthAuthority, OAuthFake } from '../sandbox-kit/oauth-authority';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export interface LocalPost { name: string; body: Record<string, unknown>; createTime?: string; searchUrl?: string }

const ACTIONS = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'];

/**
 * A loopback Google + Business Profile (the three APIs' paths on one origin), after developers.google.com/my-business:
 * the authorize page (`GET /o/oauth2/v2/auth`, auto-consent, PKCE) and `POST /token` as Google's; `GET /v1/accounts`
 * (Account Management); `GET /v1/accounts/{a}/locations?readMask=…` and `GET /v1/locations/{l}?readMask=…` (Business
 * Information; readMask required); `POST /v4/accounts/{a}/locations/{l}/localPosts` checked as the LocalPost
 * reference says: topicType STANDARD | EVENT | OFFER, EVENT and OFFER need event {title, schedule {startDate,
 * endDate}}, callToAction {actionType, url} (url unless CALL; none on an OFFER), media [{mediaFormat: PHOTO,
 * sourceUrl}], summary ≤ 1,500 → the LocalPost with name, state LIVE, createTime and searchUrl;
 * `GET /v4/accounts/{a}/locations/{l}/localPosts?pageSize&pageToken` (localPosts.list: {localPosts, nextPageToken},
 * pageSize 20 by default, 1–100; {} for a location without posts). Errors as `{error: {code, message, status}}`.
 */
export class GoogleBusinessFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'gbp', clientId: 'gbp-client.apps.googleusercontent.com', clientSecret: 'gbp-secret', standingToken: 'gbp-good-token' });
  accounts = [{ name: 'accounts/1100', accountName: 'Acme Bakeries', type: 'ORGANIZATION' }];
  locations: Record<string, Array<{ name: string; title: string }>> = {
    'accounts/1100': [{ name: 'locations/2201', title: 'Acme Bakery Kreuzberg' }, { name: 'locations/2202', title: 'Acme Bakery Mitte' }],
  };
  readonly posts: LocalPost[] = [];
  /** The fake's clock for createTime (a test sets its manual clock). */
  now: () => number = Date.now;

  get token(): string { return this.oauth.standingToken!; }

  override reset(): void {
    super.reset();
    this.posts.length = 0;
  }

  static error(status: number, grpc: string, message: string): FakeReply { return { status, body: { error: { code: status, message, status: grpc } } }; }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'GET /o/oauth2/v2/auth') return this.oauth.authorize(req.url);
    if (key === 'POST /token') {
      const f = formOf(req.text);
      if (!this.oauth.clientOk(f.client_id, f.client_secret)) return { status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } };
      const r = this.oauth.tokenRequest(f);
      if (!r) return { status: 400, body: { error: 'unsupported_grant_type' } };
      if (!r.ok) return { status: 400, body: { error: r.error, error_description: r.description } };
      const refresh = f.grant_type === 'authorization_code' ? { refresh_token: r.refresh_token } : {};
      return { body: { access_token: r.access_token, expires_in: 3599, ...refresh, scope: r.scope, token_type: 'Bearer' } };
    }
    if (!this.bearerOk(req)) return GoogleBusinessFake.error(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    if (key === 'GET /v1/accounts') return { body: { accounts: this.accounts } };
    const list = /^\/v1\/(accounts\/\d+)\/locations$/.exec(req.path)?.[1];
    if (req.method === 'GET' && list) {
      if (!req.url.searchParams.get('readMask')) return GoogleBusinessFake.error(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: read_mask is required.');
      return { body: { locations: this.locations[list] ?? [] } };
    }
    const one = /^\/v1\/(locations\/\d+)$/.exec(req.path)?.[1];
    if (req.method === 'GET' && one) {
      const loc = Object.values(this.locations).flat().find((l) => l.name === one);
      return loc ? { body: loc } : GoogleBusinessFake.error(404, 'NOT_FOUND', 'Requested entity was not found.');
    }
    const post = /^\/v4\/accounts\/(\d+)\/locations\/(\d+)\/localPosts$/.exec(req.path);
    if (req.method === 'POST' && post) return this.createPost(post[1], post[2], (req.json ?? {}) as Record<string, unknown>);
    if (req.method === 'GET' && post) return this.listPosts(post[1], post[2], req.url.searchParams);
    return GoogleBusinessFake.error(404, 'NOT_FOUND', 'Requested entity was not found.');
  }

  private createPost(account: string, location: string, b: Record<string, unknown>): FakeReply {
    const bad = (m: string) => GoogleBusinessFake.error(400, 'INVALID_ARGUMENT', `Request contains an invalid argument: ${m}`);
    if (!(this.locations[`accounts/${account}`] ?? []).some((l) => l.name === `locations/${location}`)) return GoogleBusinessFake.error(404, 'NOT_FOUND', 'Requested entity was not found.');
    const topic = b.topicType;
    if (topic !== 'STANDARD' && topic !== 'EVENT' && topic !== 'OFFER') return bad('topicType');
    if (typeof b.summary === 'string' && [...b.summary].length > 1500) return bad('summary is longer than 1500 characters');
    const event = b.event as { title?: unknown; schedule?: { startDate?: unknown; endDate?: unknown } } | undefined;
    if ((topic === 'EVENT' || topic === 'OFFER') && (typeof event?.title !== 'string' || !event.schedule?.startDate || !event.schedule?.endDate)) return bad('event.title and event.schedule are required');
    const cta = b.callToAction as { actionType?: string; url?: string } | undefined;
    if (cta) {
      if (topic === 'OFFER') return bad('callToAction is not allowed on an OFFER');
      if (!ACTIONS.includes(String(cta.actionType))) return bad('callToAction.actionType');
      if (cta.actionType !== 'CALL' && !cta.url) return bad('callToAction.url is required');
    }
    const media = b.media as Array<{ mediaFormat?: string; sourceUrl?: string }> | undefined;
    if (media && (media.length !== 1 || media[0].mediaFormat !== 'PHOTO' || !media[0].sourceUrl)) return bad('media');
    const name = `accounts/${account}/locations/${location}/localPosts/${++this.n}`;
    const post: LocalPost = { name, body: b, createTime: new Date(this.now()).toISOString(), searchUrl: `https://local.google.com/place?id=${location}&use=posts&lpsid=${this.n}` };
    this.posts.push(post);
    return { body: this.postView(post) };
  }

  private postView(p: LocalPost): Record<string, unknown> {
    return { ...p.body, name: p.name, state: 'LIVE', createTime: p.createTime, updateTime: p.createTime, searchUrl: p.searchUrl };
  }

  /** localPosts.list: the location's posts, newest first, `pageSize` a page from `pageToken` on. */
  private listPosts(account: string, location: string, q: URLSearchParams): FakeReply {
    if (!(this.locations[`accounts/${account}`] ?? []).some((l) => l.name === `locations/${location}`)) return GoogleBusinessFake.error(404, 'NOT_FOUND', 'Requested entity was not found.');
    const size = q.get('pageSize') === null ? 20 : Number(q.get('pageSize'));
    if (!Number.isInteger(size) || size < 1 || size > 100) return GoogleBusinessFake.error(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: page_size.');
    const mine = this.posts.filter((p) => p.name.startsWith(`accounts/${account}/locations/${location}/`)).reverse();
    const from = Number(q.get('pageToken') ?? 0);
    const page = mine.slice(from, from + size).map((p) => this.postView(p));
    const more = from + size < mine.length;
    return { body: { ...(page.length ? { localPosts: page } : {}), ...(more ? { nextPageToken: String(from + size) } : {}) } };
  }
}

/** Google Business Profile in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<GoogleBusinessFake> = {
  create: () => new GoogleBusinessFake(),
  servers: (fake) => ({ google_business: fake.server }),
  env: (fake) => oauthEnv('GOOGLE_BUSINESS', fake, { GOOGLE_BUSINESS_API_BASE: fake.url }),
  read: readByPaths(/^\/v4\/accounts\/\d+\/locations\/\d+\/localPosts$/),
};
