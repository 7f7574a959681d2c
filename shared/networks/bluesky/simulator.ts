import { atprotoCid } from '../sandbox-kit/atproto-cid';
import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';
import { BlueskyVideoFake } from './video-simulator';

/**
 * A loopback Bluesky PDS: createSession, uploadBlob, resolveHandle, createRecord, getServiceAuth (the token for the
 * video service) app.bsky.feed.getPosts (`posts`) and app.bsky.feed.getAuthorFeed (`feed`, paged by cursor), as the PDS proxies them to the AppView, as the real XRPC endpoints
 * answer them, plus GET /media/<name> serving test media bytes. `override(nsid, reply)` replaces one endpoint's answer.
 */
export class BlueskyFake extends NetworkSimulator {
  /** handle → password accepted by createSession (the app password). */
  readonly accounts = new Map<string, { password: string; did: string }>([['alice.test', { password: 'abcd-efgh-ijkl-mnop', did: 'did:plc:alice' }]]);
  /** Handles that resolveHandle knows. */
  readonly dids = new Map<string, string>([['bob.test', 'did:plc:bob']]);
  readonly media = new Map<string, { type: string; bytes: Buffer }>();
  /** Posts that app.bsky.feed.getPosts knows (reply_to / quote targets), by at:// URI. */
  readonly posts = new Map<string, { uri: string; cid: string; record: Record<string, unknown> }>();
  /** rkeys of the posts createRecord made and deleteRecord has not removed. */
  readonly created = new Set<string>();
  /** The service token getServiceAuth hands out (the video service accepts it). */
  serviceToken = 'service-token-1';
  /** The account's author feed, newest first: posts created here, or seeded by a test (`repost` marks a repost item). */
  readonly feed: Array<{ uri: string; cid: string; text: string; createdAt: string; repost?: boolean }> = [];
  /** The counts a post of the feed shows (likes, reposts, replies, quotes): plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures();
  readonly overrides = new Map<string, (req: RecordedRequest) => FakeReply>();
  private records = 0;
  private blobs = 0;


  /** The CID of the nth blob uploadBlob stores, and of the nth record createRecord writes (counted from 1). */
  static blobCid(n: number): string { return atprotoCid('raw', `blob${n}`); }
  static recordCid(n: number): string { return atprotoCid('dag-cbor', `record${n}`); }

  override reset(): void {
    super.reset();
    this.overrides.clear();
    this.media.clear();
    this.posts.clear();
    this.created.clear();
    this.feed.length = 0;
    this.records = 0;
    this.blobs = 0;
  }

  override(nsid: string, reply: FakeReply | ((req: RecordedRequest) => FakeReply)): void {
    this.overrides.set(nsid, typeof reply === 'function' ? reply : () => reply);
  }

  /** Requests to one XRPC method, in order. */
  calls(nsid: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === `/xrpc/${nsid}`);
  }

  mediaUrl(name: string): string { return `${this.url}/media/${name}`; }

  protected route(req: RecordedRequest): FakeReply {
    if (req.path.startsWith('/media/')) {
      const m = this.media.get(req.path.slice('/media/'.length));
      return m ? { status: 200, headers: { 'content-type': m.type }, body: m.bytes } : { status: 404, body: 'not found' };
    }
    const nsid = req.path.replace(/^\/xrpc\//, '');
    const override = this.overrides.get(nsid);
    if (override) return override(req);
    const authed = req.headers.authorization === 'Bearer access-jwt-1';
    switch (nsid) {
      case 'com.atproto.server.createSession': {
        const body = req.json as { identifier?: string; password?: string };
        const account = this.accounts.get(body.identifier ?? '');
        if (!account || account.password !== body.password) {
          return { status: 401, body: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' } };
        }
        return { status: 200, body: { did: account.did, handle: body.identifier, accessJwt: 'access-jwt-1', refreshJwt: 'refresh-jwt-1', active: true } };
      }
      case 'com.atproto.repo.uploadBlob':
        if (!authed) return { status: 401, body: { error: 'AuthenticationRequired', message: 'Authentication Required' } };
        this.blobs++;
        return {
          status: 200,
          body: { blob: { $type: 'blob', ref: { $link: BlueskyFake.blobCid(this.blobs) }, mimeType: req.headers['content-type'], size: req.body.length } },
        };
      case 'com.atproto.identity.resolveHandle': {
        const did = this.dids.get(req.url.searchParams.get('handle') ?? '');
        return did ? { status: 200, body: { did } } : { status: 400, body: { error: 'InvalidRequest', message: 'Unable to resolve handle' } };
      }
      case 'com.atproto.server.getServiceAuth':
        if (!authed) return { status: 401, body: { error: 'AuthenticationRequired', message: 'Authentication Required' } };
        if (!req.url.searchParams.get('aud')?.startsWith('did:web:') || !req.url.searchParams.get('lxm')) {
          return { status: 400, body: { error: 'InvalidRequest', message: 'aud (did:web) and lxm are required' } };
        }
        return { status: 200, body: { token: this.serviceToken } };
      case 'app.bsky.feed.getPosts': {
        if (!authed) return { status: 401, body: { error: 'AuthenticationRequired', message: 'Authentication Required' } };
        const uris = req.url.searchParams.getAll('uris');
        // posts made here answer with their (simulated, growing) counts: what post analytics read
        const counted = (u: string) => {
          const made = this.feed.find((p) => p.uri === u);
          if (!made) return undefined;
          const f = this.figures.of(`bluesky:${u}`, Date.parse(made.createdAt));
          return { uri: u, cid: made.cid, record: { text: made.text, createdAt: made.createdAt }, likeCount: f.likes, repostCount: f.shares, replyCount: f.comments, quoteCount: f.quotes };
        };
        return { status: 200, body: { posts: uris.map((u) => this.posts.get(u) ?? counted(u)).filter(Boolean) } };
      }
      case 'com.atproto.repo.createRecord': {
        if (!authed) return { status: 401, body: { error: 'AuthenticationRequired', message: 'Authentication Required' } };
        this.records++;
        const created = { uri: `at://did:plc:alice/app.bsky.feed.post/rkey${this.records}`, cid: BlueskyFake.recordCid(this.records) };
        const record = (req.json as { record?: { text?: string; createdAt?: string } } | undefined)?.record;
        this.feed.unshift({ ...created, text: record?.text ?? '', createdAt: record?.createdAt ?? new Date().toISOString() });
        this.created.add(`rkey${this.records}`);
        return { status: 200, body: created };
      }
      case 'app.bsky.feed.getAuthorFeed': {
        if (req.url.searchParams.get('actor') !== 'did:plc:alice') return { status: 400, body: { error: 'InvalidRequest', message: 'Profile not found' } };
        const limit = Math.min(Number(req.url.searchParams.get('limit') ?? 50) || 50, 100);
        const from = Number(req.url.searchParams.get('cursor') ?? 0);
        const page = this.feed.slice(from, from + limit).map((p) => ({
          post: { uri: p.uri, cid: p.cid, author: { did: 'did:plc:alice', handle: 'alice.test' }, record: { $type: 'app.bsky.feed.post', text: p.text, createdAt: p.createdAt }, indexedAt: p.createdAt },
          ...(p.repost ? { reason: { $type: 'app.bsky.feed.defs#reasonRepost', by: { did: 'did:plc:alice' }, indexedAt: p.createdAt } } : {}),
        }));
        return { status: 200, body: { feed: page, ...(from + limit < this.feed.length ? { cursor: String(from + limit) } : {}) } };
      }
      case 'com.atproto.repo.deleteRecord': {
        // "Delete a repository record, or ensure it doesn't exist": an unknown rkey answers 200 as well
        if (!authed) return { status: 401, body: { error: 'AuthenticationRequired', message: 'Authentication Required' } };
        const body = req.json as { repo?: string; collection?: string; rkey?: string };
        if (!body.repo || !body.collection || !body.rkey) return { status: 400, body: { error: 'InvalidRequest', message: 'repo, collection and rkey are required' } };
        this.created.delete(body.rkey);
        const inFeed = this.feed.findIndex((p) => p.uri.endsWith(`/${body.rkey}`));
        if (inFeed >= 0) this.feed.splice(inFeed, 1);
        return { status: 200, body: { commit: { cid: atprotoCid('dag-cbor', `commit${this.records}`), rev: `rev${this.records}` } } };
      }
      default:
        return { status: 501, body: { error: 'MethodNotImplemented', message: `no ${nsid}` } };
    }
  }
}

/** The sandbox's Bluesky: the PDS and its video service (`video`), two hosts as at the real network. */
export class SandboxBluesky extends BlueskyFake {
  readonly video = new BlueskyVideoFake();
}

/** Bluesky in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<SandboxBluesky> = {
  create: () => new SandboxBluesky(),
  servers: (fake) => ({ bluesky: fake.server, 'bluesky-video': fake.video.server }),
  env: (_fake, base) => ({ BLUESKY_API_BASE: base('bluesky'), BLUESKY_VIDEO_BASE: base('bluesky-video') }),
  credentials: () => ({ handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' }),
  read: readByPaths(/^\/xrpc\/com\.atproto\.repo\.createRecord$/, [['POST', /^\/xrpc\/com\.atproto\.repo\.deleteRecord$/, 'deleted']]),
  textLimit: {
    path: /^\/xrpc\/com\.atproto\.repo\.createRecord$/, text: (b) => (b.record as Record<string, unknown> | undefined)?.text, max: 300,
    reply: { status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes' } },
  },
};
