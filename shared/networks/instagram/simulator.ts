import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { FacebookFake } from '../facebook/graph-simulator';
import { type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

interface Container { id: string; params: Record<string, string>; polls: number; outcome: 'FINISHED' | 'ERROR' | 'EXPIRED'; statusText?: string; published: boolean }

/**
 * The Meta Graph fake with Instagram content publishing (Facebook Login flavour): `GET /{ig-user-id}` (id, username),
 * `POST /{ig-user-id}/media` (containers, recorded with their parameters), `GET /{container}?fields=status_code,status`
 * (IN_PROGRESS for `containerPolls` reads, then FINISHED, or ERROR with `containerError` as the status text),
 * `POST /{ig-user-id}/media_publish` (9007 when the container is not FINISHED; published media are listed by
 * `GET /{ig-user-id}/media`, newest first), `GET /{media}?fields=permalink` and `GET /{media}/insights` (growing figures).
 * Login, /me/accounts and the failNext queue come from FacebookFake.
 */
export class InstagramFake extends FacebookFake {
  containerPolls = 0;
  containerError?: string;
  readonly containers = new Map<string, Container>();
  private readonly media = new Map<string, string>();
  /** Published media of each account, newest first (as /{ig-user-id}/media lists them): published here, or seeded by a test. */
  readonly published: Array<{ ig: string; id: string; caption?: string; timestamp: string; permalink: string }> = [];

  override reset(): void {
    super.reset();
    this.containers.clear();
    this.media.clear();
    this.published.length = 0;
    this.containerPolls = 0;
    this.containerError = undefined;
  }

  /** Ends a container's processing: its next status read answers FINISHED. */
  finishProcessing(id: string): void {
    const c = this.containers.get(id);
    if (c) c.polls = 0;
  }

  protected override extra(_req: RecordedRequest, key: string, params: Record<string, string>): FakeReply | undefined {
    const [method, path] = key.split(' ');
    const [, id, edge] = path.split('/');
    const account = this.pages.find((p) => p.ig?.id === id)?.ig;
    if (account && method === 'GET' && !edge) return { body: { id: account.id, username: account.username } };
    if (account && method === 'POST' && edge === 'media') {
      const { access_token: _, ...fields } = params;
      const isChild = fields.is_carousel_item === 'true';
      if (!isChild && fields.media_type !== 'CAROUSEL' && !fields.image_url && !fields.video_url) return FacebookFake.error(100, 'The parameter image_url is required.');
      if (fields.media_type === 'CAROUSEL' && (fields.children ?? '').split(',').some((c) => this.containers.get(c)?.polls !== 0)) {
        return FacebookFake.error(9007, 'Media ID is not available', 2207027);
      }
      const cid = `179${String(++this.n).padStart(14, '0')}`;
      const carousel = fields.media_type === 'CAROUSEL';
      this.containers.set(cid, {
        id: cid, params: fields, polls: carousel ? 0 : this.containerPolls, published: false,
        outcome: this.containerError && !carousel ? 'ERROR' : 'FINISHED', statusText: this.containerError,
      });
      return { body: { id: cid } };
    }
    if (account && method === 'GET' && edge === 'media') {
      const mine = this.published.filter((m) => m.ig === account.id);
      const limit = Number(params.limit ?? 25);
      const start = Number(params.after ?? 0);
      const data = mine.slice(start, start + limit).map(({ ig: _, ...m }) => m);
      const end = start + data.length;
      const paging: Record<string, unknown> = { cursors: { before: String(start), after: String(end) } };
      if (end < mine.length) paging.next = `https://graph.facebook.com/v/${account.id}/media?after=${end}`;
      return { body: { data, paging } };
    }
    if (account && method === 'POST' && edge === 'media_publish') {
      const c = this.containers.get(params.creation_id ?? '');
      if (!c) return FacebookFake.error(100, 'Unsupported post request', 33);
      if (c.polls > 0 || c.outcome !== 'FINISHED' || c.published) return FacebookFake.error(9007, 'Media ID is not available', 2207027);
      c.published = true;
      const mediaId = `180${String(++this.n).padStart(14, '0')}`;
      this.media.set(mediaId, `https://www.instagram.com/p/Cx${this.n}AbC/`);
      this.figures.published(mediaId);
      if (c.params.media_type !== 'STORIES') {
        this.published.unshift({ ig: account.id, id: mediaId, caption: c.params.caption, timestamp: new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, '+0000'), permalink: this.media.get(mediaId)! });
      }
      return { body: { id: mediaId } };
    }
    if (method === 'GET' && !edge && this.containers.has(id)) {
      const c = this.containers.get(id)!;
      if (c.published) return { body: { id, status_code: 'PUBLISHED', status: 'Published' } };
      if (c.polls > 0) { c.polls--; return { body: { id, status_code: 'IN_PROGRESS', status: 'In Progress' } }; }
      return { body: { id, status_code: c.outcome, status: c.statusText ?? (c.outcome === 'FINISHED' ? 'Finished' : c.outcome) } };
    }
    if (method === 'GET' && !edge && this.media.has(id)) return { body: { id, permalink: this.media.get(id) } };
    if (method === 'GET' && edge === 'insights' && this.media.has(id)) return this.insights(id, params.metric ?? '');
    return undefined;
  }

  /** `GET /{media}/insights?metric=views,reach,likes,comments,shares,saved`: lifetime values (growing: sandbox-kit/figures.ts). */
  private insights(id: string, metric: string): FakeReply {
    const f = this.figures.of(id);
    const all: Record<string, number> = { views: f.views, reach: f.reach, likes: f.likes, comments: f.comments, shares: f.shares, saved: f.saves, total_interactions: f.likes + f.comments + f.shares + f.saves };
    const names = metric.split(',').filter(Boolean);
    if (!names.length || names.some((n) => !(n in all))) return FacebookFake.error(100, `(#100) metric[0] must be one of the following values: ${Object.keys(all).join(', ')}`);
    return { body: { data: names.map((name) => ({ name, period: 'lifetime', values: [{ value: all[name] }], title: name, id: `${id}/insights/${name}/lifetime` })) } };
  }
}

/**
 * Instagram in the sandbox of `npm start`: served by Facebook's Graph API host (the same origin, as at Meta), whose
 * media containers answer IN_PROGRESS once before FINISHED, as Instagram builds media asynchronously
 * (shared/networks/sandbox-kit/sandbox-simulator.ts).
 */
export const simulator: SandboxSimulator<InstagramFake> = {
  create: (peer) => {
    const graph = peer('facebook', InstagramFake);
    graph.containerPolls = 1;
    return graph;
  },
  servers: () => ({}),
  env: (fake) => ({ INSTAGRAM_CLIENT_ID: fake.clientId, INSTAGRAM_CLIENT_SECRET: fake.clientSecret, INSTAGRAM_AUTH_BASE: fake.url }),
};
