import { isFailure, type Failure, type FetchedMedia, type NetworkAdapter, type NetworkContext, type PublishContent, type PublishOutcome } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { checkFile } from '../media-fit';
import { checkBluesky, MEDIA_RULES } from './limits';
import { buildFacets, findSpans } from './facets';
import { field, openSession, sessionKey, SessionCache, str, xrpcFailure, type Session } from './xrpc';
import { createBlueskyManagement } from './manage';
import { blueskyReadBack } from './read-back';
import { blueskyPostRef } from './post-ref';
import { readVideoInfo } from '../../media/video-info';
import { readLinkCard } from './link-card';
import { pollVideoJob, uploadVideo, type VideoJob } from './video';
import { trimBase } from '../../domain/values';
import { createBlueskyVerifier } from './verify-credentials';
import { blueskyMetrics } from './analytics';


export interface BlueskyAdapterOptions {
  /** The PDS origin (XRPC base); the default is the real one, tests point it at a loopback fake. */
  apiBase?: string;
  /** Where sessions are kept between posts (one per adapter, i.e. per Lambda instance, by default). */
  sessions?: SessionCache;
  /** The video service (app.bsky.video.*); tests point it at a loopback fake. */
  videoBase?: string;
  /** Pause between video job polls inside one call (ctx.sleep), and the time kept for posting after the last poll. */
  pollIntervalMs?: number;
  reserveMs?: number;
  /** A job still processing when the call must end is resumed by the worker after this many seconds. */
  resumeAfterSeconds?: number;
}

interface StrongRef { uri: string; cid: string }
type AspectRatio = { width: number; height: number };
type MediaEmbed =
  | { $type: 'app.bsky.embed.images'; images: Array<{ image: unknown; alt: string; aspectRatio?: AspectRatio }> }
  | { $type: 'app.bsky.embed.video'; video: unknown; alt?: string; aspectRatio?: AspectRatio };
type Embed =
  | MediaEmbed
  | { $type: 'app.bsky.embed.record'; record: StrongRef }
  | { $type: 'app.bsky.embed.recordWithMedia'; record: { record: StrongRef }; media: MediaEmbed }
  | { $type: 'app.bsky.embed.external'; external: { uri: string; title: string; description: string; thumb?: unknown } };
interface ReplyRef { root: StrongRef; parent: StrongRef }


/** rkey = last segment of at://<did>/app.bsky.feed.post/<rkey>. */
const postUrl = (handle: string, uri: string): string => `https://bsky.app/profile/${handle}/post/${uri.split('/').pop() ?? ''}`;

/**
 * Bluesky adapter (AT Protocol, handle + app password, against the PDS at `apiBase`).
 * Endpoints: `com.atproto.server.createSession` (verify; sessions cached per instance), `com.atproto.repo.uploadBlob`
 * (images from ctx.fetchMedia, ≤ 1,000,000 bytes each, ≤ 4, each with its alt text), the video service at
 * `videoBase` (one video: `com.atproto.server.getServiceAuth` → `app.bsky.video.uploadVideo` → `getJobStatus` polled
 * until the blob is ready → `app.bsky.embed.video` with alt and the aspect ratio read from the file),
 * `com.atproto.identity.resolveHandle` (mention facets; unresolved mentions stay plain text), `app.bsky.feed.getPosts`
 * (reply_to / quote: the post's cid and its thread root), `com.atproto.repo.createRecord` (app.bsky.feed.post with
 * facets in UTF-8 byte offsets; embeds: images, video, record (quote), recordWithMedia (quote + media), external
 * (link card: the page's og: title/description/image read through ctx.fetch, the address-guarded fetch); thread
 * entries and the first comment as replies).
 * A video job still running when the call must end → 'processing' with resume state {step: video, job_id}; the worker
 * calls resume() later (no sleep on the real clock beyond ctx.sleep inside the deadline).
 * Failures: 429 RateLimitExceeded → rate_limited (ratelimit-reset); ExpiredToken / InvalidToken /
 * AuthenticationRequired / 401 → reauth; AuthFactorTokenRequired → rejected (asks for an App Password); 400
 * InvalidRequest → rejected; a refused blob or a failed video job → bad_media; 5xx / network → transient; deadline → timeout.
 * Result id = the post's at:// URI; url = https://bsky.app/profile/<handle>/post/<rkey>.
 */
export function createBlueskyAdapter({
  apiBase = 'https://bsky.social', sessions = new SessionCache(), videoBase = 'https://video.bsky.app',
  pollIntervalMs = 2000, reserveMs = 4000, resumeAfterSeconds = 10,
}: BlueskyAdapterOptions = {}): NetworkAdapter {
  const base = trimBase(apiBase);
  const video = { base: trimBase(videoBase), pollIntervalMs, reserveMs };
  const xrpc = (nsid: string): string => `${base}/xrpc/${nsid}`;

  async function download(ctx: NetworkContext, content: PublishContent): Promise<FetchedMedia[] | Failure> {
    const files: FetchedMedia[] = [];
    for (const [i, item] of content.media.entries()) {
      const file = await ctx.fetchMedia(item.url);
      const want = item.kind === 'video' ? 'video/' : 'image/';
      const type = file.content_type.startsWith(want) ? file.content_type : item.content_type ?? file.content_type;
      if (!type.startsWith(want)) return rejected(`bluesky takes ${item.kind}s here; media ${i + 1} is ${type}`, 'bad_media');
      const unfit = checkFile('bluesky', MEDIA_RULES, item.kind, { ...file, content_type: type }, i);
      if (unfit) return unfit;
      files.push({ ...file, content_type: type });
    }
    return files;
  }

  async function uploadBlob(ctx: NetworkContext, session: Session, file: FetchedMedia, what: string): Promise<unknown> {
    const res = await request(ctx, xrpc('com.atproto.repo.uploadBlob'), {
      method: 'POST',
      headers: { authorization: `Bearer ${session.accessJwt}`, 'content-type': file.content_type, accept: 'application/json' },
      body: new Uint8Array(file.bytes),
    });
    if (res.status !== 200) {
      const failure = xrpcFailure(res, what, ctx.now());
      return failure.kind === 'rejected' ? { ...failure, code: 'bad_media' } : failure;
    }
    const blob = field(res.json, 'blob');
    return blob ?? { ok: false, kind: 'transient', error: `bluesky ${what} answered without a blob` };
  }


  async function uploadImages(ctx: NetworkContext, session: Session, content: PublishContent, files: FetchedMedia[]): Promise<MediaEmbed | Failure> {
    const images: Array<{ image: unknown; alt: string }> = [];
    for (const [i, file] of files.entries()) {
      const blob = await uploadBlob(ctx, session, file, 'image upload');
      if (isFailure(blob)) return blob;
      images.push({ image: blob, alt: content.media[i].alt ?? '' });
    }
    return { $type: 'app.bsky.embed.images', images };
  }

  const videoEmbed = (blob: unknown, alt: string | undefined, ratio: AspectRatio | undefined): MediaEmbed =>
    ({ $type: 'app.bsky.embed.video', video: blob, ...(alt ? { alt } : {}), ...(ratio ? { aspectRatio: ratio } : {}) });

  /** Looks a post up by link (app.bsky.feed.getPosts, proxied by the PDS): its strong ref and its thread root. */
  async function lookupPost(ctx: NetworkContext, session: Session, resolve: (h: string) => Promise<string | undefined>, ref: string, what: string): Promise<ReplyRef | Failure> {
    const parsed = blueskyPostRef(ref);
    if (!parsed) return rejected(`bluesky ${what}: ${ref} is not a Bluesky post link`);
    const did = parsed.actor.startsWith('did:') ? parsed.actor : await resolve(parsed.actor.toLowerCase());
    if (!did) return rejected(`bluesky ${what}: the account ${parsed.actor} was not found`);
    const uri = `at://${did}/app.bsky.feed.post/${parsed.rkey}`;
    const res = await request(ctx, `${xrpc('app.bsky.feed.getPosts')}?uris=${encodeURIComponent(uri)}`,
      { headers: { authorization: `Bearer ${session.accessJwt}`, accept: 'application/json' } });
    if (res.status !== 200) return xrpcFailure(res, what, ctx.now());
    const posts = field(res.json, 'posts');
    const post = Array.isArray(posts) ? posts[0] : undefined;
    const cid = str(field(post, 'cid'));
    if (!post || !cid) return rejected(`bluesky ${what}: the post ${ref} was not found (deleted, or not visible to this account)`);
    const self = { uri: str(field(post, 'uri')) ?? uri, cid };
    const root = field(field(field(post, 'record'), 'reply'), 'root');
    const rootRef = str(field(root, 'uri')) && str(field(root, 'cid')) ? { uri: str(field(root, 'uri'))!, cid: str(field(root, 'cid'))! } : self;
    return { root: rootRef, parent: self };
  }

  /** One app.bsky.feed.post record; mentions resolved through a per-publish cache. */
  async function createPost(
    ctx: NetworkContext, session: Session, resolve: (handle: string) => Promise<string | undefined>,
    text: string, extra: { embed?: Embed; reply?: ReplyRef },
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

  /** The embed of the first post around its media: quote (record / recordWithMedia) or link card (external). */
  async function wrapEmbed(ctx: NetworkContext, session: Session, resolve: (h: string) => Promise<string | undefined>, content: PublishContent, media: MediaEmbed | undefined): Promise<Embed | undefined | Failure> {
    const quote = content.options?.quote;
    if (quote !== undefined) {
      const q = await lookupPost(ctx, session, resolve, quote, 'quote');
      if ('ok' in q) return q;
      return media ? { $type: 'app.bsky.embed.recordWithMedia', record: { record: q.parent }, media } : { $type: 'app.bsky.embed.record', record: q.parent };
    }
    const card = content.options?.link_card;
    if (card !== undefined && !media) {
      const uri = card === true ? findSpans(content.text).find((s) => s.kind === 'link')?.value : card;
      if (!uri) return rejected('bluesky link_card: true asks for the first link of the text, and the text has none');
      const page = await readLinkCard(ctx, uri);
      let thumb: unknown;
      if (page.image) {
        thumb = await uploadBlob(ctx, session, page.image, 'link card image upload');
        if (isFailure(thumb)) thumb = undefined;
      }
      return { $type: 'app.bsky.embed.external', external: { uri, title: page.title, description: page.description, ...(thumb ? { thumb } : {}) } };
    }
    return media;
  }

  /** The first post and its chain (thread entries, first comment): the steps after the media are ready. */
  async function postAll(ctx: NetworkContext, session: Session, content: PublishContent, media: MediaEmbed | undefined): Promise<PublishOutcome> {
    const resolve = resolver(ctx, session);
    const embed = await wrapEmbed(ctx, session, resolve, content, media);
    if (embed && 'ok' in embed) return embed;
    let reply: ReplyRef | undefined;
    if (content.options?.reply_to !== undefined) {
      const target = await lookupPost(ctx, session, resolve, content.options.reply_to, 'reply_to');
      if ('ok' in target) return target;
      reply = target;
    }
    const root = await createPost(ctx, session, resolve, content.text, { ...(embed ? { embed } : {}), ...(reply ? { reply } : {}) });
    if ('ok' in root) return root;
    const result: PublishOutcome = { ok: true, status: 'published', id: root.uri, url: postUrl(session.handle, root.uri) };
    // The first post exists from here on: a failing follow-up ends the chain but never turns the result into a failure
    // (a retry would post the first one twice). thread_ids / comment_id list what was made.
    const threadRoot = reply?.root ?? root;
    try {
      let parent = root;
      for (const text of content.thread) {
        const next = await createPost(ctx, session, resolve, text, { reply: { root: threadRoot, parent } });
        if ('ok' in next) return result;
        (result.thread_ids ??= []).push(next.uri);
        parent = next;
      }
      if (content.first_comment !== undefined) {
        const comment = await createPost(ctx, session, resolve, content.first_comment, { reply: { root: threadRoot, parent: root } });
        if (!('ok' in comment)) result.comment_id = comment.uri;
      }
    } catch {
      // timeout / unreachable after the first post: keep what was published
    }
    return result;
  }

  const aspect = (file: FetchedMedia): AspectRatio | undefined => {
    const info = readVideoInfo(file.bytes);
    return info?.width && info.height ? { width: info.width, height: info.height } : undefined;
  };

  /** A video job's answer: posts when the blob is ready, 'processing' (resume later) while it runs, bad_media when it failed. */
  async function afterJob(ctx: NetworkContext, session: Session, content: PublishContent, job: VideoJob | Failure, ratio: AspectRatio | undefined): Promise<PublishOutcome> {
    if ('ok' in job) return job;
    if (job.state === 'done') return postAll(ctx, session, content, videoEmbed(job.blob, content.media[0]?.alt, ratio));
    const state: Record<string, string> = { step: 'video', job_id: job.job_id, ...(ratio ? { width: String(ratio.width), height: String(ratio.height) } : {}) };
    return { ok: true, status: 'processing', id: `bluesky-video-job:${job.job_id}`, url: `https://bsky.app/profile/${session.handle}`, resume: { after_seconds: resumeAfterSeconds, state } };
  }

  /** Signs in (cached session; a refused cached token before anything was posted → one fresh login) and runs `step`. */
  async function withSession(ctx: NetworkContext, step: (session: Session) => Promise<PublishOutcome>): Promise<PublishOutcome> {
    let session: Session | Failure = await openSession(ctx, base, sessions);
    for (let attempt = 0; ; attempt++) {
      if (!session.ok) return session;
      const out = await step(session);
      if (out.ok || out.kind !== 'reauth' || attempt > 0) return out;
      sessions.drop(sessionKey(ctx, base));
      session = await openSession(ctx, base, sessions, true);
    }
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const invalid = checkBluesky(content);
    if (invalid) return invalid;
    const files = await download(ctx, content);
    if (!Array.isArray(files)) return files;
    const isVideo = content.media[0]?.kind === 'video';
    return withSession(ctx, async (session) => {
      if (isVideo) {
        const ratio = aspect(files[0]);
        const job = await uploadVideo(ctx, base, video, session, files[0]);
        return afterJob(ctx, session, content, job, ratio);
      }
      const media = files.length ? await uploadImages(ctx, session, content, files) : undefined;
      if (media && 'ok' in media) return media;
      return postAll(ctx, session, content, media);
    });
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    if (state.step !== 'video' || !state.job_id) return rejected('bluesky: this upload cannot be continued (unknown resume state)');
    const ratio = state.width && state.height ? { width: Number(state.width), height: Number(state.height) } : undefined;
    return withSession(ctx, async (session) => afterJob(ctx, session, content, await pollVideoJob(ctx, video, state.job_id), ratio));
  }

  return {
    name: 'bluesky',
    verify: createBlueskyVerifier({ apiBase, sessions }).verify,
    check: checkBluesky,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    ...createBlueskyManagement({ base, sessions }),
    readBack: blueskyReadBack(base, sessions),
    metrics: blueskyMetrics(base, sessions),
  };
}
