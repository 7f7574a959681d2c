import type { FetchedMedia, Failure, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { badMedia, failureFromError, guarded, jsonInit, rejected, request } from '../http';
import { readVideoInfo } from '../../media/video-info';
import { YOUTUBE_API_BASE, YOUTUBE_UPLOAD_BASE, type YouTubeOptions } from './oauth';
import { checkContent, youtubeFailure } from './rules';
import { probe, sendFrom, type UploadState, type UploadTarget } from './upload';

export { createYouTubeProvider, type YouTubeOptions } from './oauth';
import { trimBase } from '../../domain/values';
import { accessToken, createYouTubeVerifier } from './verify-credentials';
import { youtubeReadBack } from './read-back';
import { createYouTubeManagement } from './manage';
import { youtubeMetrics } from './analytics';
export { secondsUntilPacificMidnight } from './rules';






export interface YouTubeAdapterOptions extends YouTubeOptions {
  /** Bytes per PUT; a multiple of 256 KiB (Google's rule for all but the last chunk). Default 8 MiB. */
  chunkSize?: number;
  /** Wait before a resume after an interruption; doubles per interruption in a row, up to 15 min. Default 15 s. */
  resumeAfterSeconds?: number;
  /** Time kept free before ctx.deadline: chunks in flight are cut off this much earlier. Default 1000 ms. */
  reserveMs?: number;
  /** Interruptions in a row (no byte gained) before resume gives up with 'transient'. Default 12. */
  maxInterruptions?: number;
}

const CHUNK_UNIT = 256 * 1024;
const WATCH = 'https://www.youtube.com/watch?v=';
const SHORTS = 'https://www.youtube.com/shorts/';
/** YouTube files vertical or square videos up to 3 minutes as Shorts. */
const SHORTS_MAX_SECONDS = 180;
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/**
 * YouTube adapter (Data API v3 videos.insert, resumable upload; the bytes come from ctx.fetchMedia).
 * Credentials: access_token, channel_id, channel_title (from the provider's accounts()).
 * 1. `POST {uploadBase}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status` with X-Upload-Content-Type /
 *    -Length and {snippet {title: content.title, description: text}, status {privacyStatus: content.privacy ?? public}}
 *    → the session URI (Location).
 * 2. `PUT <session>` chunk by chunk with Content-Range; 308 + Range = go on from there; 200/201 = the video resource.
 * The upload outliving the call (deadline), a broken connection, a 5xx or no answer → 'processing' with resume
 * {session_uri, offset, total, attempt}; resume() probes the session (`Content-Range: bytes *\/<total>` → 308 Range)
 * and sends the rest from where it stopped; an expired session (404/410) starts a new upload (no video existed).
 * Failures: quotaExceeded / uploadLimitExceeded → rate_limited until midnight Pacific; 401 → reauth; see rules.ts.
 * Result id = video id, url = https://www.youtube.com/watch?v=<id> (https://www.youtube.com/shorts/<id> for a vertical or
 * square video of up to 3 minutes). thumbnail_url (JPEG/PNG ≤ 2 MB, checked before the upload) and playlist_id are
 * applied once the video exists (finish). thread / first_comment are not used.
 */
export function createYouTubeAdapter(opts: YouTubeAdapterOptions = {}): NetworkAdapter {
  const api = trimBase(opts.apiBase ?? YOUTUBE_API_BASE);
  const upload = trimBase(opts.uploadBase ?? YOUTUBE_UPLOAD_BASE);
  const chunkSize = Math.max(CHUNK_UNIT, Math.floor((opts.chunkSize ?? 8 * 1024 * 1024) / CHUNK_UNIT) * CHUNK_UNIT);
  const resumeAfterSeconds = opts.resumeAfterSeconds ?? 15;
  const reserveMs = opts.reserveMs ?? 1000;
  const maxInterruptions = opts.maxInterruptions ?? 12;
  const token = accessToken;

  async function media(content: PublishContent, ctx: NetworkContext): Promise<FetchedMedia | Failure> {
    const item = content.media.find((m) => m.kind === 'video');
    if (!item) return rejected('youtube needs a video', 'bad_media');
    const file = await ctx.fetchMedia(item.url);
    if (file.bytes.length === 0) return rejected(`youtube: the video at ${item.url} is empty`, 'bad_media');
    return file;
  }

  const uploadType = (file: FetchedMedia): string => (/^video\//i.test(file.content_type) ? file.content_type : 'application/octet-stream');

  /** Step 1: the upload session. Nothing exists at YouTube before it answers, so a timeout is only transient. */
  async function startSession(ctx: NetworkContext, content: PublishContent, t: string, file: FetchedMedia): Promise<string | Failure> {
    const metadata = { snippet: { title: content.title?.trim(), description: content.text }, status: { privacyStatus: content.privacy ?? 'public' } };
    try {
      const res = await request(ctx, `${upload}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t}`, accept: 'application/json', 'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-length': String(file.bytes.length), 'x-upload-content-type': uploadType(file),
        },
        body: JSON.stringify(metadata),
      });
      if (res.status !== 200 && res.status !== 201) return youtubeFailure(res, 'upload start', ctx.now());
      const location = res.headers.get('location');
      if (!location) return { ok: false, kind: 'transient', error: 'youtube started an upload without a session URI (Location)' };
      return new URL(location, `${upload}/`).toString();
    } catch (err) {
      const f = failureFromError(err);
      return f.kind === 'timeout' ? { ok: false, kind: 'transient', error: `${f.error}; nothing was uploaded` } : f;
    }
  }

  function processing(ctx: NetworkContext, sessionUri: string, offset: number, total: number, attempt: number, after: number): PublishOutcome {
    const channel = ctx.credentials.channel_id;
    return {
      ok: true, status: 'processing',
      id: new URL(sessionUri).searchParams.get('upload_id') ?? 'upload',
      url: channel ? `https://www.youtube.com/channel/${encodeURIComponent(channel)}` : 'https://www.youtube.com/',
      resume: { after_seconds: after, state: { session_uri: sessionUri, offset: String(offset), total: String(total), attempt: String(attempt) } },
    };
  }

  /** Sends from `offset` and turns where the upload stands into an outcome. */
  async function carry(ctx: NetworkContext, target: UploadTarget, offset: number, attempt: number): Promise<PublishOutcome | 'gone'> {
    const state: UploadState = await sendFrom(ctx, target, offset, chunkSize, ctx.deadline - reserveMs);
    if (state.kind === 'done') return { ok: true, status: 'published', id: state.videoId, url: `${WATCH}${encodeURIComponent(state.videoId)}` };
    if (state.kind === 'failed') return state.failure;
    if (state.kind === 'gone') return 'gone';
    if (state.offset > offset || !state.interrupted) {
      // Bytes went through (or only the time ran out): carry on soon, the interruption count starts again.
      return processing(ctx, target.sessionUri, state.offset, target.bytes.length, 0, 1);
    }
    if (attempt >= maxInterruptions) {
      return { ok: false, kind: 'transient', error: `youtube upload made no progress after ${attempt} interruptions in a row; nothing was published` };
    }
    const wait = Math.min(resumeAfterSeconds * 2 ** attempt, 900);
    return processing(ctx, target.sessionUri, state.offset, target.bytes.length, attempt + 1, wait);
  }

  /** The thumbnail_url image, checked before anything is uploaded: JPEG or PNG, at most 2 MB (thumbnails.set). */
  async function thumbnail(ctx: NetworkContext, content: PublishContent): Promise<FetchedMedia | undefined | Failure> {
    const url = content.options?.thumbnail_url;
    if (!url) return undefined;
    const file = await ctx.fetchMedia(url);
    const type = file.content_type.split(';')[0].trim().toLowerCase();
    if (type !== 'image/jpeg' && type !== 'image/png') {
      return badMedia(`youtube thumbnails are JPEG or PNG; thumbnail_url is ${type}`, `The thumbnail is a ${type} file; YouTube takes JPEG or PNG thumbnails. Nothing was uploaded.`,
        'Convert the thumbnail to JPEG or PNG (1280×720 recommended) and send it again.');
    }
    if (file.bytes.length > THUMBNAIL_MAX_BYTES) {
      return badMedia(`youtube thumbnails are at most ${THUMBNAIL_MAX_BYTES} bytes; thumbnail_url has ${file.bytes.length}`,
        'The thumbnail is larger than YouTube\'s 2 MB limit. Nothing was uploaded.', 'Compress the thumbnail below 2 MB and send it again.');
    }
    return file;
  }

  /**
   * After the upload: the Shorts link for a vertical or square video of up to 3 minutes (YouTube files those as
   * Shorts; read from the file's headers), the thumbnail (`POST {upload}/upload/youtube/v3/thumbnails/set?videoId=`),
   * and the playlist (`POST {api}/youtube/v3/playlistItems?part=snippet`). The video exists by then: a failing
   * thumbnail or playlist step keeps it published.
   */
  async function finish(ctx: NetworkContext, t: string, content: PublishContent, file: FetchedMedia, out: PublishOutcome, thumb: FetchedMedia | undefined): Promise<PublishOutcome> {
    if (!out.ok || out.status !== 'published') return out;
    const info = readVideoInfo(file.bytes);
    const short = info?.width !== undefined && info.height !== undefined && info.height >= info.width && info.duration_s !== undefined && info.duration_s <= SHORTS_MAX_SECONDS;
    const result: PublishOutcome = short ? { ...out, url: `${SHORTS}${encodeURIComponent(out.id)}` } : out;
    try {
      const image = thumb ?? (content.options?.thumbnail_url ? await thumbnail(ctx, content) : undefined);
      if (image && !('ok' in image)) {
        await request(ctx, `${upload}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(out.id)}`, {
          method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': image.content_type.split(';')[0].trim(), accept: 'application/json' }, body: new Uint8Array(image.bytes),
        });
      }
      const playlist = content.options?.playlist_id;
      if (playlist) {
        await request(ctx, `${api}/youtube/v3/playlistItems?part=snippet`, jsonInit('POST', {
          snippet: { playlistId: playlist, resourceId: { kind: 'youtube#video', videoId: out.id } },
        }, { authorization: `Bearer ${t}` }));
      }
    } catch {
      // the video is published: a thumbnail or playlist step cut off by the deadline does not undo it
    }
    return result;
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const invalid = checkContent(content);
    if (invalid) return invalid;
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    const file = await media(content, ctx);
    if ('ok' in file) return file;
    const thumb = await thumbnail(ctx, content);
    if (thumb && 'ok' in thumb) return thumb;
    return finish(ctx, t, content, file, await uploadFile(content, ctx, t, file), thumb);
  }

  async function uploadFile(content: PublishContent, ctx: NetworkContext, t: string, file: FetchedMedia): Promise<PublishOutcome> {
    const session = await startSession(ctx, content, t, file);
    if (typeof session !== 'string') return session;
    const out = await carry(ctx, { sessionUri: session, token: t, bytes: file.bytes, contentType: uploadType(file) }, 0, 0);
    return out === 'gone' ? { ok: false, kind: 'transient', error: 'youtube ended the upload session before the upload finished; nothing was published' } : out;
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    const file = await media(content, ctx);
    if ('ok' in file) return file;
    return finish(ctx, t, content, file, await resumeUpload(content, state, ctx, t, file), undefined);
  }

  async function resumeUpload(content: PublishContent, state: Record<string, string>, ctx: NetworkContext, t: string, file: FetchedMedia): Promise<PublishOutcome> {
    const total = Number(state.total);
    if (!state.session_uri || total !== file.bytes.length) return uploadFile(content, ctx, t, file);
    const target: UploadTarget = { sessionUri: state.session_uri, token: t, bytes: file.bytes, contentType: uploadType(file) };
    const known = Number(state.offset) || 0;
    const attempt = Number(state.attempt) || 0;
    const stand = await probe(ctx, target, known);
    if (stand.kind === 'gone') return uploadFile(content, ctx, t, file);
    if (stand.kind === 'failed') return stand.failure;
    if (stand.kind === 'done') return { ok: true, status: 'published', id: stand.videoId, url: `${WATCH}${encodeURIComponent(stand.videoId)}` };
    if (stand.interrupted) {
      if (attempt >= maxInterruptions) return { ok: false, kind: 'transient', error: `youtube upload session did not answer after ${attempt} tries; nothing was published` };
      return processing(ctx, target.sessionUri, known, total, attempt + 1, Math.min(resumeAfterSeconds * 2 ** attempt, 900));
    }
    const out = await carry(ctx, target, stand.offset, attempt);
    return out === 'gone' ? uploadFile(content, ctx, t, file) : out;
  }

  return {
    name: 'youtube',
    verify: createYouTubeVerifier(opts).verify,
    check: checkContent,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    readBack: youtubeReadBack(api),
    metrics: youtubeMetrics(api),
    ...createYouTubeManagement(api),
  };
}
