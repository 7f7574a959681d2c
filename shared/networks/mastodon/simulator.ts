import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

type Handler = (req: RecordedRequest) => FakeReply;

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** A status's `content` as Mastodon renders it: HTML paragraph, <br /> line breaks, mentions as h-card links showing @user. */
const renderStatus = (text: string): string => `<p>${escapeHtml(text)
  .replace(/@(\w+)@([\w.-]+\.[a-z]{2,})/gi, '<span class="h-card"><a href="https://$2/@$1" class="u-url mention">@<span>$1</span></a></span>')
  .replace(/\n/g, '<br />')}</p>`;

/**
 * A loopback Mastodon instance: verify_credentials, v2 instance, v2 media (+ v1 media polling), statuses and v2 search
 * (resolve=true finds `remoteStatuses`) and the account's statuses (`posted`, newest first, paged by max_id), as the
 * real API answers them, plus GET /media/<name> serving test media bytes.
 * Statuses it made can be deleted (`DELETE /api/v1/statuses/:id`) and edited (`PUT /api/v1/statuses/:id` {status})
 * as Mastodon does: an unknown or deleted status answers 404 Record not found.
 * `override('POST /api/v1/statuses', reply)` replaces one route's answer; `processing` sets how many polls a media
 * upload answers 206 after its 202 (0 = the upload answers 200 at once).
 */
export class MastodonFake extends NetworkSimulator {
  token = 'good-token';
  maxCharacters = 500;
  processing = 0;
  /** Status links of other servers that search?resolve=true finds, with the local id they get here. */
  readonly remoteStatuses = new Map<string, string>();
  readonly media = new Map<string, { type: string; bytes: Buffer }>();
  readonly overrides = new Map<string, Handler>();
  /** Statuses of the account, as account statuses lists them (newest first): what was posted here, or seeded by a test. */
  readonly posted: Array<{ id: string; content: string; created_at: string; url: string }> = [];
  /** The fake's clock for created_at (a test sets its manual clock). */
  now: () => number = Date.now;
  /** The figures a status shows (favourites, reblogs, replies, quotes): plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());
  private statuses = 0;
  /** The statuses made and not deleted, by id, with their current text. */
  readonly texts = new Map<string, string>();
  private uploads = 0;
  private polls = new Map<string, number>();


  override reset(): void {
    super.reset();
    this.overrides.clear();
    this.media.clear();
    this.polls.clear();
    this.remoteStatuses.clear();
    this.statuses = 0;
    this.texts.clear();
    this.posted.length = 0;
    this.uploads = 0;
    this.processing = 0;
    this.maxCharacters = 500;
  }

  override(route: string, reply: FakeReply | Handler): void {
    this.overrides.set(route, typeof reply === 'function' ? reply : () => reply);
  }

  /** Requests as "METHOD /path", API calls only (media downloads left out). */
  get calls(): string[] {
    return this.requests.filter((r) => r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`);
  }

  find(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  mediaUrl(name: string): string { return `${this.url}/media/${name}`; }

  protected route(req: RecordedRequest): FakeReply {
    if (req.method === 'GET' && req.path.startsWith('/media/')) {
      const m = this.media.get(req.path.slice('/media/'.length));
      return m ? { status: 200, headers: { 'content-type': m.type }, body: m.bytes } : { status: 404, body: 'not found' };
    }
    const key = `${req.method} ${req.path.replace(/^\/api\/v1\/media\/[^/]+$/, '/api/v1/media/:id').replace(/^\/api\/v1\/statuses\/[^/]+$/, '/api/v1/statuses/:id')}`;
    const override = this.overrides.get(key);
    if (override) return override(req);
    if (key === 'GET /api/v2/instance') {
      return { status: 200, body: { domain: '127.0.0.1', configuration: { statuses: { max_characters: this.maxCharacters, max_media_attachments: 4, characters_reserved_per_url: 23 } } } };
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return { status: 401, body: { error: 'The access token is invalid' } };
    switch (key) {
      case 'GET /api/v1/accounts/verify_credentials':
        return { status: 200, body: { id: '1', username: 'alice', acct: 'alice', url: `${this.url}/@alice` } };
      case 'POST /api/v2/media': {
        const id = String(100 + ++this.uploads);
        if (this.processing === 0) return { status: 200, body: { id, type: 'image', url: `${this.url}/files/${id}` } };
        this.polls.set(id, this.processing);
        return { status: 202, body: { id, type: 'video', url: null } };
      }
      case 'GET /api/v1/media/:id': {
        const id = req.path.split('/').pop() ?? '';
        const left = this.polls.get(id);
        if (left === undefined) return { status: 404, body: { error: 'Record not found' } };
        if (left === 0) return { status: 200, body: { id, url: `${this.url}/files/${id}` } };
        this.polls.set(id, left - 1);
        return { status: 206, body: { id, url: null } };
      }
      case 'GET /api/v2/search': {
        const q = req.url.searchParams.get('q') ?? '';
        const id = req.url.searchParams.get('resolve') === 'true' && req.url.searchParams.get('type') === 'statuses' ? this.remoteStatuses.get(q) : undefined;
        return { status: 200, body: { accounts: [], hashtags: [], statuses: id ? [{ id, url: q }] : [] } };
      }
      case 'POST /api/v1/statuses': {
        const id = String(1000 + ++this.statuses);
        const text = String((req.json as { status?: unknown } | undefined)?.status ?? '');
        const status = { id, url: `${this.url}/@alice/${id}`, created_at: new Date(this.now()).toISOString(), content: renderStatus(text) };
        this.posted.unshift(status);
        this.figures.published(`mastodon:${id}`);
        this.texts.set(id, text);
        return { status: 200, body: { ...status, uri: `${this.url}/users/alice/statuses/${id}` } };
      }
      case 'GET /api/v1/accounts/1/statuses': {
        const limit = Math.min(Number(req.url.searchParams.get('limit') ?? 20) || 20, 40);
        const maxId = req.url.searchParams.get('max_id');
        const from = maxId ? this.posted.findIndex((p) => p.id === maxId) + 1 : 0;
        return { status: 200, body: (maxId && from === 0 ? [] : this.posted.slice(from, from + limit)) };
      }
      case 'GET /api/v1/statuses/:id': {
        const id = decodeURIComponent(req.path.split('/').pop() ?? '');
        const text = this.texts.get(id);
        if (text === undefined) return { status: 404, body: { error: 'Record not found' } };
        const f = this.figures.of(`mastodon:${id}`);
        return { status: 200, body: { id, url: `${this.url}/@alice/${id}`, content: renderStatus(text), favourites_count: f.likes, reblogs_count: f.shares, replies_count: f.comments, quotes_count: f.quotes } };
      }
      case 'DELETE /api/v1/statuses/:id':
      case 'PUT /api/v1/statuses/:id': {
        const id = decodeURIComponent(req.path.split('/').pop() ?? '');
        const text = this.texts.get(id);
        if (text === undefined) return { status: 404, body: { error: 'Record not found' } };
        const status = { id, uri: `${this.url}/users/alice/statuses/${id}`, url: `${this.url}/@alice/${id}` };
        if (req.method === 'DELETE') {
          this.texts.delete(id);
          const listed = this.posted.findIndex((p) => p.id === id);
          if (listed >= 0) this.posted.splice(listed, 1);
          return { status: 200, body: { ...status, text } };
        }
        const next = (req.json as { status?: unknown } | undefined)?.status;
        if (typeof next !== 'string' || !next.trim()) return { status: 422, body: { error: "Validation failed: Text can't be blank" } };
        this.texts.set(id, next);
        const listed = this.posted.find((p) => p.id === id);
        if (listed) listed.content = renderStatus(next);
        return { status: 200, body: { ...status, content: `<p>${next}</p>`, edited_at: new Date().toISOString() } };
      }
      default:
        return { status: 404, body: { error: 'Record not found' } };
    }
  }
}

/** Mastodon in the sandbox of `npm start`: its instance URL travels in the credentials (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<MastodonFake> = {
  create: () => new MastodonFake(),
  servers: (fake) => ({ mastodon: fake.server }),
  env: () => ({}),
  credentials: (fake, base) => ({ instance_url: base('mastodon'), access_token: fake.token }),
  read: readByPaths(/^\/api\/v1\/statuses$/, [['DELETE', /^\/api\/v1\/statuses\/[^/]+$/, 'deleted'], ['PUT', /^\/api\/v1\/statuses\/[^/]+$/, 'edited']]),
  textLimit: { path: /^\/api\/v1\/statuses$/, text: (b) => b.status, max: 500, reply: { status: 422, body: { error: 'Validation failed: Text character limit of 500 exceeded' } } },
};
