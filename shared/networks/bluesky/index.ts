import type { Failure, FetchedMedia, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome, VerifiedAccount } from '../types';
import { guarded, jsonInit, rejected, request } from '../http';
import { TEXT_RULES } from '../../domain/text-length';
import { lengthFailure } from '../text-check';
import { buildFacets } from './facets';
import { field, openSession, sessionKey, SessionCache, str, xrpcFailure, type Session } from './xrpc';

export interface BlueskyAdapterOptions {
  /** The PDS origin (XRPC base); the default is the real one, tests point it at a loopback fake. */
  apiBase?: string;
  /** Where sessions are kept between posts (one per adapter, i.e. per Lambda instance, by default). */
  sessions?: SessionCache;
}

export const BLUESKY_TEXT_LIMIT = TEXT_RULES.bluesky.limit; // graphemes
export const BLUESKY_TEXT_BYTES = TEXT_RULES.bluesky.maxBytes!; // lexicon maxLength (UTF-8 bytes)
export const BLUESKY_MAX_IMAGES = 4;
export const BLUESKY_IMAGE_BYTES = 1_000_000;

interface StrongRef { uri: string; cid: string }
type Embed = { $type: 'app.bsky.embed.images'; images: Array<{ image: unknown; alt: string }> };


function checkContent(content: PublishContent): Failure | undefined {
  const tooLong = lengthFailure('bluesky', content);
  if (tooLong) return tooLong;
  if (content.media.some((m) => m.kind === 'video')) return rejected('video is not supported yet on bluesky', 'bad_media');
  if (content.media.length > BLUESKY_MAX_IMAGES) {
    return rejected(`bluesky takes at most ${BLUESKY_MAX_IMAGES} images per post; got ${content.media.length}`, 'bad_media');
  }
  return undefined;
}

/** rkey = last segment of at://<did>/app.bsky.feed.post/<rkey>. */
const postUrl = (handle: string, uri: string): string => `https://bsky.app/profile/${handle}/post/${uri.split('/').pop() ?? ''}`;

/**
 * Bluesky adapter (AT Protocol, handle + app password, against the PDS at `apiBase`).
 * Endpoints: `com.atproto.server.createSession` (verify, and once per publish), `com.atproto.repo.uploadBlob`
 * (image bytes from ctx.fetchMedia, ≤ 1,000,000 bytes each, ≤ 4), `com.atproto.identity.resolveHandle` (mention
 * facets; unresolved mentions stay plain text), `com.atproto.repo.createRecord` (app.bsky.feed.post with link /
 * mention / tag facets in UTF-8 byte offsets; thread entries and the first comment as replies). Video is refused as
 * bad_media (the video-service upload is not implemented).
 * Failures: 429 RateLimitExceeded → rate_limited (ratelimit-reset); ExpiredToken / InvalidToken /
 * AuthenticationRequired / 401 → reauth; AuthFactorTokenRequired → rejected (asks for an App Password); 400
 * InvalidRequest → rejected; a refused blob → bad_media; 5xx / network → transient; deadline → timeout.
 * Result id = the post's at:// URI; url = https://bsky.app/profile/<handle>/post/<rkey>.
 * Sessions are reused per instance until shortly before the access token expires (SessionCache); a cached token
 * the PDS refuses before anything was posted is replaced by one fresh login. verify always logs in.
 */
export function createBlueskyAdapter({ apiBase = 'https://bsky.social', sessions = new SessionCache() }: BlueskyAdapterOptions = {}): NetworkAdapter {
  const base = apiBase.replace(/\/+$/, '');
  const xrpc = (nsid: string): string => `${base}/xrpc/${nsid}`;

  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const session = await openSession(ctx, base, sessions, true);
    if (!session.ok) return session;
    return {
      ok: true,
      handle: `@${session.handle}`,
      credentials: { handle: session.handle, app_password: (ctx.credentials.app_password ?? '').trim(), did: session.did },
    };
  }

  async function download(ctx: NetworkContext, content: PublishContent): Promise<FetchedMedia[] | Failure> {
    const files: FetchedMedia[] = [];
    for (const [i, item] of content.media.entries()) {
      const file = await ctx.fetchMedia(item.url);
      const type = file.content_type.startsWith('image/') ? file.content_type : item.content_type ?? file.content_type;
      if (!type.startsWith('image/')) return rejected(`bluesky takes images only; media ${i + 1} is ${type}`, 'bad_media');
      if (file.bytes.length > BLUESKY_IMAGE_BYTES) {
        return rejected(`bluesky takes images up to ${BLUESKY_IMAGE_BYTES} bytes; media ${i + 1} has ${file.bytes.length}`, 'bad_media');
      }
      files.push({ ...file, content_type: type });
    }
    return files;
  }

  async function uploadImages(ctx: NetworkContext, session: Session, files: FetchedMedia[]): Promise<Embed | undefined | Failure> {
    if (!files.length) return undefined;
    const images: Embed['images'] = [];
    for (const file of files) {
      const res = await request(ctx, xrpc('com.atproto.repo.uploadBlob'), {
        method: 'POST',
        headers: { authorization: `Bearer ${session.accessJwt}`, 'content-type': file.content_type, accept: 'application/json' },
        body: new Uint8Array(file.bytes),
      });
      if (res.status !== 200) {
        const failure = xrpcFailure(res, 'image upload', ctx.now());
        return failure.kind === 'rejected' ? { ...failure, code: 'bad_media' } : failure;
      }
      const blob = field(res.json, 'blob');
      if (!blob) return { ok: false, kind: 'transient', error: 'bluesky image upload answered without a blob' };
      images.push({ image: blob, alt: '' });
    }
    return { $type: 'app.bsky.embed.images', images };
  }

  /** One app.bsky.feed.post record; mentions resolved through a per-publish cache. */
  async function createPost(
    ctx: NetworkContext, session: Session, resolve: (handle: string) => Promise<string | undefined>,
    text: string, extra: { embed?: Embed; reply?: { root: StrongRef; parent: StrongRef } },
  ): Promise<StrongRef | Failure> {
    const facets = await buildFacets(text, resolve);
    const record = {
      $type: 'app.bsky.feed.post', text, createdAt: new Date(ctx.now()).toISOString(),
      ...(facets.length ? { facets } : {}), ...extra,
    };
    const res = await request(ctx, xrpc('com.atproto.repo.createRecord'),
      jsonInit('POST', { repo: session.did, collection: 'app.bsky.feed.post', record }, { authorization: `Bearer ${session.accessJwt}` }));
    if (res.status !== 200) return xrpcFailure(res, 'post', ctx.now());
    const uri = str(field(res.json, 'uri'));
    const cid = str(field(res.json, 'cid'));
    if (!uri || !cid) return { ok: false, kind: 'transient', error: 'bluesky answered the post without uri/cid' };
    return { uri, cid };
  }

  function resolver(ctx: NetworkContext, session: Session): (handle: string) => Promise<string | undefined> {
    const cache = new Map<string, string | undefined>();
    return async (handle) => {
      if (cache.has(handle)) return cache.get(handle);
      const res = await request(ctx, `${xrpc('com.atproto.identity.resolveHandle')}?handle=${encodeURIComponent(handle)}`,
        { headers: { authorization: `Bearer ${session.accessJwt}`, accept: 'application/json' } });
      const did = res.status === 200 ? str(field(res.json, 'did')) : undefined;
      cache.set(handle, did);
      return did;
    };
  }

  /** Images and the first post (the steps before anything exists on the network). */
  async function firstPost(ctx: NetworkContext, session: Session, files: FetchedMedia[], content: PublishContent) {
    const resolve = resolver(ctx, session);
    const embed = await uploadImages(ctx, session, files);
    if (embed && 'ok' in embed) return { root: embed, resolve };
    return { root: await createPost(ctx, session, resolve, content.text, embed ? { embed } : {}), resolve };
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const invalid = checkContent(content);
    if (invalid) return invalid;
    const files = await download(ctx, content);
    if (!Array.isArray(files)) return files;
    // Up to the first post nothing exists on Bluesky: a refused cached session is retried once with a new login.
    let session: Session | Failure = await openSession(ctx, base, sessions);
    let first: Awaited<ReturnType<typeof firstPost>> | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!session.ok) return session;
      first = await firstPost(ctx, session, files, content);
      if (!('ok' in first.root) || first.root.kind !== 'reauth' || attempt > 0) break;
      sessions.drop(sessionKey(ctx, base));
      session = await openSession(ctx, base, sessions, true);
    }
    if (!session.ok || !first) return session as Failure;
    const { root, resolve } = first;
    if ('ok' in root) return root;

    const result: PublishOutcome = { ok: true, status: 'published', id: root.uri, url: postUrl(session.handle, root.uri) };
    // The first post exists from here on: a failing follow-up ends the chain but never turns the result into a failure
    // (a retry would post the first one twice). thread_ids / comment_id list what was made.
    try {
      let parent = root;
      for (const text of content.thread) {
        const reply = await createPost(ctx, session, resolve, text, { reply: { root, parent } });
        if ('ok' in reply) return result;
        (result.thread_ids ??= []).push(reply.uri);
        parent = reply;
      }
      if (content.first_comment !== undefined) {
        const comment = await createPost(ctx, session, resolve, content.first_comment, { reply: { root, parent: root } });
        if (!('ok' in comment)) result.comment_id = comment.uri;
      }
    } catch {
      // timeout / unreachable after the first post: keep what was published
    }
    return result;
  }

  return {
    name: 'bluesky',
    verify: (ctx) => guarded(() => verify(ctx)),
    check: (content) => checkContent(content),
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
  };
}
