import { SimulatedFigures } from '../sandbox-kit/figures';
import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { basicCredentials, formOf, OAuthAuthority, OAuthFake } from '../sandbox-kit/oauth-authority';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

/**
 * A loopback Reddit serving both origins' paths: `GET /api/v1/authorize` (auto-consent), `POST /api/v1/access_token`
 * (HTTP Basic client auth, form body; a bad code answers HTTP 200 `{error: "invalid_grant"}` as Reddit does, a bad
 * refresh token 400; refresh answers without a refresh_token), `GET /api/v1/me`, `GET /user/<name>/submitted` (what was submitted here, newest first, paged by `after`) and `POST /api/submit` (answers
 * `{json: {errors, data}}` with HTTP 200 even when refused; unknown subreddits → SUBREDDIT_NOEXIST). Every call needs
 * a User-Agent other than a generic one (else 429, as Reddit throttles them). `POST /api/del {id}` (200 `{}`, also for a post
 * already gone), `POST /api/editusertext {thing_id, text}` (self posts only, else NOT_AUTHOR) and `GET /api/info?id=`
 * (the posts submitted here, with a growing score and num_comments). `failNext("METHOD /path", reply)`.
 */
export class RedditFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'rd' });
  username = 'acme_team';
  userId = 'k3x9q';
  subreddits = new Set(['test', 'acme']);
  /** The user's submissions, newest first (as /user/<name>/submitted lists them): submitted here, or seeded by a test. */
  readonly submitted: Array<{ name: string; subreddit: string; title: string; is_self: boolean; selftext: string; url: string; permalink: string; created_utc: number }> = [];
  /** The fake's clock for created_utc (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Score and comments of the posts submitted here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  override reset(): void {
    super.reset();
    this.subreddits = new Set(['test', 'acme']);
    this.submitted.length = 0;
  }

  /** A valid access token for adapter tests. */
  token(): string { return this.oauth.grantToken(); }

  static submitErrors(...errors: Array<[string, string, string?]>): FakeReply {
    return { status: 200, body: { json: { errors: errors.map(([c, m, f]) => [c, m, f ?? null]) } } };
  }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    const agent = String(req.headers['user-agent'] ?? '');
    if (!agent || /^(node|undici|python-requests|curl)/i.test(agent)) return { status: 429, body: { message: 'Too Many Requests', error: 429 } };
    if (key === 'GET /api/v1/authorize') return this.oauth.authorize(req.url);
    if (key === 'POST /api/v1/access_token') return this.tokenEndpoint(req);
    if (!this.bearerOk(req)) return { status: 401, body: { message: 'Unauthorized', error: 401 } };
    if (key === 'GET /api/v1/me') return { body: { id: this.userId, name: this.username, icon_img: 'https://styles.redditmedia.com/a.png', total_karma: 12 } };
    if (key === 'POST /api/submit') {
      const f = formOf(req.text);
      if (f.api_type !== 'json') return { status: 200, body: 'jQuery html answer' };
      if (!this.subreddits.has(f.sr)) return RedditFake.submitErrors(['SUBREDDIT_NOEXIST', 'that community doesn\'t exist', 'sr']);
      if (!f.title) return RedditFake.submitErrors(['NO_TEXT', 'we need something here', 'title']);
      if (f.kind === 'link' && !f.url) return RedditFake.submitErrors(['NO_URL', 'a url is required', 'url']);
      const id = `1abc${++this.n}`;
      const permalink = `/r/${f.sr}/comments/${id}/${f.title.toLowerCase().replace(/\W+/g, '_').slice(0, 40)}/`;
      this.submitted.unshift({
        name: `t3_${id}`, subreddit: f.sr, title: f.title, is_self: f.kind === 'self', selftext: f.kind === 'self' ? f.text ?? '' : '',
        url: f.kind === 'self' ? `https://www.reddit.com${permalink}` : f.url, permalink, created_utc: Math.floor(this.now() / 1000),
      });
      return { body: { json: { errors: [], data: { url: `https://www.reddit.com${permalink}`, drafts_count: 0, id, name: `t3_${id}` } } } };
    }
    if (key === 'POST /api/del') {
      const f = formOf(req.text);
      const i = this.submitted.findIndex((p) => p.name === f.id);
      if (i >= 0) this.submitted.splice(i, 1);
      return { body: {} };
    }
    if (key === 'POST /api/editusertext') {
      const f = formOf(req.text);
      const post = this.submitted.find((p) => p.name === f.thing_id);
      if (!post || !post.is_self) return RedditFake.submitErrors(['NOT_AUTHOR', 'you can\'t do that', 'thing_id']);
      post.selftext = f.text ?? '';
      return { body: { json: { errors: [], data: { things: [{ kind: 't3', data: { name: post.name, selftext: post.selftext } }] } } } };
    }
    if (req.method === 'GET' && req.path === '/api/info') {
      // things by fullname (post analytics): the posts submitted here, with a growing score and comment count
      const ids = (req.url.searchParams.get('id') ?? '').split(',').filter(Boolean).slice(0, 100);
      const children = this.submitted.filter((p) => ids.includes(p.name)).map((p) => {
        const f = this.figures.of(p.name, p.created_utc * 1000);
        return { kind: 't3', data: { ...p, score: f.likes, ups: f.likes, num_comments: f.comments } };
      });
      return { body: { kind: 'Listing', data: { after: null, dist: children.length, children, before: null } } };
    }
    if (req.method === 'GET' && req.path === `/user/${this.username}/submitted`) {
      const limit = Math.min(Number(req.url.searchParams.get('limit') ?? 25) || 25, 100);
      const after = req.url.searchParams.get('after');
      const from = after ? this.submitted.findIndex((p) => p.name === after) + 1 : 0;
      const page = after && from === 0 ? [] : this.submitted.slice(from, from + limit);
      const more = from + limit < this.submitted.length;
      return { body: { kind: 'Listing', data: { after: more ? page[page.length - 1].name : null, dist: page.length, children: page.map((data) => ({ kind: 't3', data })) } } };
    }
    return { status: 404, body: { message: 'Not Found', error: 404 } };
  }

  private tokenEndpoint(req: RecordedRequest): FakeReply {
    const [id, secret] = basicCredentials(req.headers.authorization);
    if (!this.oauth.clientOk(id, secret)) return { status: 401, body: { message: 'Unauthorized', error: 401 } };
    const f = formOf(req.text);
    if (f.grant_type === 'authorization_code') {
      const t = this.oauth.redeem(f.code, { client: id, redirectUri: f.redirect_uri });
      if (!t.ok) return { status: 200, body: { error: 'invalid_grant' } };
      return { body: { access_token: t.access_token, token_type: 'bearer', expires_in: 86400 / 24, scope: t.scope, refresh_token: t.refresh_token } };
    }
    if (f.grant_type === 'refresh_token') {
      const t = this.oauth.refresh(f.refresh_token);
      if (!t.ok) return { status: 400, body: { error: 'invalid_grant' } };
      return { body: { access_token: t.access_token, token_type: 'bearer', expires_in: 3600, scope: 'identity submit' } };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }
}

/** Reddit in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<RedditFake> = {
  create: () => new RedditFake(),
  servers: (fake) => ({ reddit: fake.server }),
  env: (fake) => oauthEnv('REDDIT', fake, { REDDIT_API_BASE: fake.url }),
  read: readByPaths(/^\/api\/(submit|comment)$/, [['POST', /^\/api\/del$/, 'deleted'], ['POST', /^\/api\/editusertext$/, 'edited']]),
};
