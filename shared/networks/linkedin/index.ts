import { checkFile } from '../media-fit';
import type { Failure, FetchedMedia, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome, Published } from '../../ports/networks';
import { badMedia, guarded, jsonInit, rejected, request } from '../http';
import { field, str } from '../oauth-tokens';
import { checkLinkedin, escapeLittleText, linkedinFailure } from './rules';
import { createLinkedinManagement } from './manage';
import { encodeUrn, uploadDocument, uploadImage, uploadVideo, videoStatus, type LinkedinApi } from './media';
import { trimBase } from '../../domain/values';
import { linkedinReadBack } from './read-back';
import { linkedinMetrics } from './analytics';
import { LINKEDIN_API_BASE, LINKEDIN_VERSION, type LinkedinOptions } from './oauth';
import { createLinkedinVerifier } from './verify-credentials';

export {
  createLinkedinProvider, LINKEDIN_VERSION, type LinkedinOptions,
} from './oauth';

/** Documents API: PDF (also PPT/PPTX/DOC/DOCX, not offered here) up to 100 MB and 300 pages. */
export const LINKEDIN_DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;

const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;
/**
 * LinkedIn adapter (Posts API). ctx.credentials: `access_token` and `author_urn` (urn:li:person:<sub>, or an
 * urn:li:organization:<id> when the app has organization access).
 * Publish: images are uploaded (initializeUpload + PUT bytes from ctx.fetchMedia) and attached as `content.media`
 * (one, with altText) or `content.multiImage` (2–20, each with altText); a document (PDF, ctx.fetchDocument) is uploaded
 * through the Documents API and posted as `content.media {id, title}`; a video is uploaded in parts, finalized and polled until AVAILABLE — when that
 * does not happen before the deadline the answer is 'processing' with resume state {video, started_at}, and resume()
 * polls again and creates the post once AVAILABLE. `POST /rest/posts` (commentary escaped as "little text") → 201,
 * id in `x-restli-id`; url https://www.linkedin.com/feed/update/<urn>. first_comment: `POST
 * /rest/socialActions/<urn>/comments`; a failed comment keeps the published post.
 * Visibility: PUBLIC, or CONNECTIONS for privacy 'private' on a member author.
 */
export function createLinkedinAdapter(opts: LinkedinOptions = {}): NetworkAdapter {
  const apiBase = trimBase(opts.apiBase ?? LINKEDIN_API_BASE);
  const version = opts.version ?? LINKEDIN_VERSION;
  const pollIntervalMs = opts.pollIntervalMs ?? 3000;
  const reserveMs = opts.reserveMs ?? 5000;
  const resumeAfter = opts.resumeAfterSeconds ?? 30;
  const maxProcessingMs = (opts.maxProcessingSeconds ?? 6 * 3600) * 1000;

  function api(credentials: Record<string, string>): { api: LinkedinApi; author: string } | Failure {
    const token = (credentials.access_token ?? '').trim();
    if (!token) return { ok: false, kind: 'reauth', error: 'linkedin needs an access_token: connect LinkedIn again' };
    const author = (credentials.author_urn ?? '').trim();
    if (!/^urn:li:(person|organization):[^\s]+$/.test(author)) return { ok: false, kind: 'reauth', error: 'linkedin needs the author URN of the account: connect LinkedIn again' };
    return {
      author,
      api: {
        base: apiBase,
        token,
        headers: { authorization: `Bearer ${token}`, 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0', accept: 'application/json' },
      },
    };
  }

  async function createPost(ctx: NetworkContext, a: { api: LinkedinApi; author: string }, content: PublishContent, media?: Record<string, unknown>): Promise<Published | Failure> {
    const body: Record<string, unknown> = {
      author: a.author,
      commentary: escapeLittleText(content.text),
      visibility: content.privacy === 'private' && a.author.startsWith('urn:li:person:') ? 'CONNECTIONS' : 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      ...(media ? { content: media } : {}),
    };
    const res = await request(ctx, `${a.api.base}/rest/posts`, jsonInit('POST', body, a.api.headers));
    if (res.status !== 201 && res.status !== 200) return linkedinFailure(res, 'post', ctx.now());
    const urn = res.headers.get('x-restli-id') ?? res.headers.get('x-linkedin-id') ?? str(field(res.json, 'id'));
    if (!urn) return { ok: false, kind: 'transient', error: 'linkedin accepted the post but answered without its id (x-restli-id)' };
    const result: Published = { ok: true, status: 'published', id: urn, url: postUrl(urn) };
    if (content.first_comment !== undefined && content.first_comment.trim()) {
      try {
        const comment = await request(ctx, `${a.api.base}/rest/socialActions/${encodeUrn(urn)}/comments`, jsonInit('POST', {
          actor: a.author, object: urn, message: { text: escapeLittleText(content.first_comment) },
        }, a.api.headers));
        const id = comment.status === 201 || comment.status === 200 ? comment.headers.get('x-restli-id') ?? str(field(comment.json, 'id')) : undefined;
        if (id) result.comment_id = id;
      } catch {
        // the post exists: a comment that times out or cannot be sent is left out
      }
    }
    return result;
  }

  /** Polls the video until AVAILABLE within the deadline; then creates the post, else answers 'processing'. */
  async function finishVideo(ctx: NetworkContext, a: { api: LinkedinApi; author: string }, content: PublishContent, video: string, startedAt: number): Promise<PublishOutcome> {
    for (let first = true; ; first = false) {
      if (!first) {
        if (ctx.now() + pollIntervalMs + reserveMs >= ctx.deadline) break;
        await ctx.sleep(pollIntervalMs);
      }
      const state = await videoStatus(ctx, a.api, video);
      if ('ok' in state) return state;
      if (state.status === 'FAILED') return rejected(`linkedin could not process the video: ${state.reason}`, 'bad_media');
      if (state.status === 'AVAILABLE') return createPost(ctx, a, content, { media: { id: video, ...(content.title ? { title: content.title } : {}) } });
    }
    if (ctx.now() - startedAt > maxProcessingMs) {
      return rejected(`linkedin was still processing the video ${Math.round((ctx.now() - startedAt) / 60000)} minutes after the upload; nothing was posted`, 'bad_media');
    }
    return { ok: true, status: 'processing', id: video, url: '', resume: { after_seconds: resumeAfter, state: { video, started_at: String(startedAt) } } };
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = api(ctx.credentials);
    if ('ok' in a) return a;
    const invalid = checkLinkedin(content);
    if (invalid) return invalid;
    const doc = content.options?.document;
    if (doc) {
      if (!ctx.fetchDocument) return rejected('linkedin document posts need a document download, which this deployment does not offer');
      const file = await ctx.fetchDocument(doc.url);
      if (file.bytes.length > LINKEDIN_DOCUMENT_MAX_BYTES) {
        return badMedia(`linkedin takes documents up to ${LINKEDIN_DOCUMENT_MAX_BYTES} bytes; the document has ${file.bytes.length}`,
          'The document is larger than LinkedIn accepts (100 MB). Nothing was posted.', 'Send a smaller PDF (at most 100 MB and 300 pages).');
      }
      const document = await uploadDocument(ctx, a.api, a.author, file);
      if (typeof document !== 'string') return document;
      return createPost(ctx, a, content, { media: { id: document, title: doc.title } });
    }
    const files: FetchedMedia[] = [];
    for (const [i, item] of content.media.entries()) {
      const file = await ctx.fetchMedia(item.url);
      const unfit = checkFile('linkedin', item.kind, file, i);
      if (unfit) return unfit;
      files.push(file);
    }
    if (content.media[0]?.kind === 'video') {
      const video = await uploadVideo(ctx, a.api, a.author, files[0]);
      if (typeof video !== 'string') return video;
      return finishVideo(ctx, a, content, video, ctx.now());
    }
    const images: string[] = [];
    for (const [i, file] of files.entries()) {
      const image = await uploadImage(ctx, a.api, a.author, file, i + 1);
      if (typeof image !== 'string') return image;
      images.push(image);
    }
    const withAlt = (id: string, i: number) => ({ id, ...(content.media[i].alt ? { altText: content.media[i].alt } : {}) });
    const media = images.length === 0 ? undefined
      : images.length === 1 ? { media: withAlt(images[0], 0) }
        : { multiImage: { images: images.map(withAlt) } };
    return createPost(ctx, a, content, media);
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = api(ctx.credentials);
    if ('ok' in a) return a;
    const video = state.video;
    if (!video) return rejected('linkedin resume state has no video URN');
    const startedAt = Number(state.started_at);
    return finishVideo(ctx, a, content, video, Number.isFinite(startedAt) ? startedAt : ctx.now());
  }

  return {
    name: 'linkedin',
    verify: createLinkedinVerifier(opts).verify,
    check: checkLinkedin,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    readBack: linkedinReadBack(apiBase, version),
    metrics: linkedinMetrics(apiBase, version, opts.postAnalytics ?? false),
    ...createLinkedinManagement(apiBase, version),
  };
}
