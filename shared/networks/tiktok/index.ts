import type { Failure, MediaItem, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { checkFile } from '../media-fit';
import { failureFromError, guarded, guardedBeforeCreate, rejected, request, type HttpResult } from '../http';
import { field, idString, str } from '../oauth-tokens';
import { creatorInfo, tiktokJson, TIKTOK_API_BASE, type TikTokOptions } from './oauth';
import { checkContent, choosePrivacy, codeFailure, errorCode, privacyRefused, succeeded, tiktokFailure } from './rules';
import { trimBase } from '../../domain/values';
import { accessToken, createTikTokVerifier } from './verify-credentials';
import { tiktokMetrics } from './analytics';

export { createTikTokProvider, type TikTokOptions } from './oauth';

export interface TikTokAdapterOptions extends TikTokOptions {
  /** Wait between status polls within one call (the status endpoint allows 30 a minute). */
  pollIntervalMs?: number;
  /** First wait before a resume when the post is still processing; it doubles per resume up to 15 min. */
  resumeAfterSeconds?: number;
  /** Time kept free before ctx.deadline: no poll starts later than this. */
  reserveMs?: number;
  /** After this long in processing, resume gives up with 'timeout' (the post may or may not appear). */
  maxProcessingMs?: number;
  /** FILE_UPLOAD: files below this size go as one chunk (TikTok: 5 MB); larger ones in chunks of chunkBytes (5–64 MB). */
  minChunkBytes?: number;
  chunkBytes?: number;
}

/** What resume() needs to follow a publish: state is stored by the worker as strings. */
interface Tracking { publish_id: string; kind: 'video' | 'photo'; username: string; started_at: number; attempt: number }

const PROFILE = 'https://www.tiktok.com';
const profileUrl = (username: string): string => (username ? `${PROFILE}/@${username}` : PROFILE);

/**
 * The first id of publicaly_available_post_id (sic). TikTok sends it as a JSON int64, which JSON.parse rounds (19
 * digits), so it is read from the raw text; a string id is taken as is.
 */
function publicPostId(res: HttpResult): string | undefined {
  const raw = /"publica?ly_available_post_id"\s*:\s*\[\s*"?(\d+)/.exec(res.text);
  if (raw) return raw[1];
  const ids = field(field(res.json, 'data'), 'publicaly_available_post_id');
  return Array.isArray(ids) ? idString(ids[0]) : undefined;
}

/**
 * TikTok adapter (Content Posting API, Direct Post, media pulled by URL).
 * Credentials: access_token, open_id, username (from the provider's accounts()).
 * Steps: `POST /v2/post/publish/creator_info/query/` (privacy options, the creator's @username, comment/duet/stitch
 * settings) → `POST /v2/post/publish/video/init/` {post_info {title: text, privacy_level, disable_*}, source_info
 * {source: PULL_FROM_URL, video_url}} or `POST /v2/post/publish/content/init/` {media_type: PHOTO, post_mode:
 * DIRECT_POST, post_info {title?, description: text, privacy_level, disable_comment, auto_add_music}, source_info
 * {source: PULL_FROM_URL, photo_cover_index: 0, photo_images}} → `POST /v2/post/publish/status/fetch/` polled until
 * PUBLISH_COMPLETE (published) or FAILED (fail_reason sorted: bad_media, media_unreachable, rejected, reauth).
 * Still PROCESSING_* when the time runs out (or the status check fails after the init) → 'processing' with
 * resume {publish_id, kind, username, started_at, attempt}; resume() polls again.
 * A video link on a domain not verified for the app (init answers url_ownership_unverified) is sent as FILE_UPLOAD
 * instead: the bytes in chunks to the returned upload_url (fileUpload).
 * privacy_level (per_platform) is sent as asked when the creator offers it, else refused listing the offered levels;
 * otherwise privacy: public → PUBLIC_TO_EVERYONE, unlisted → FOLLOWER_OF_CREATOR or MUTUAL_FOLLOW_FRIENDS, private → SELF_ONLY,
 * whichever the creator offers; none offered → rejected. Result id = the public post id once TikTok exposes it
 * (publicaly_available_post_id), else the publish_id; url = https://www.tiktok.com/@<username>/video|photo/<id>, else
 * the profile. thread and first_comment are ignored (TikTok has no API for them).
 */
export function createTikTokAdapter(opts: TikTokAdapterOptions = {}): NetworkAdapter {
  const api = trimBase(opts.apiBase ?? TIKTOK_API_BASE);
  const pollIntervalMs = opts.pollIntervalMs ?? 5000;
  const resumeAfterSeconds = opts.resumeAfterSeconds ?? 30;
  const reserveMs = opts.reserveMs ?? 1000;
  const maxProcessingMs = opts.maxProcessingMs ?? 24 * 3600_000;
  const minChunkBytes = opts.minChunkBytes ?? 5 * 1024 * 1024;
  const chunkBytes = opts.chunkBytes ?? 10 * 1024 * 1024;
  const token = accessToken;

  /** 'processing' with the state to poll again later (the wait doubles per resume, capped at 15 min). */
  function later(s: Tracking, retryAfter = 0): PublishOutcome {
    const attempt = s.attempt + 1;
    const wait = Math.max(retryAfter, Math.min(resumeAfterSeconds * 2 ** Math.min(s.attempt, 5), 900));
    return {
      ok: true, status: 'processing', id: s.publish_id, url: profileUrl(s.username),
      resume: { after_seconds: wait, state: { publish_id: s.publish_id, kind: s.kind, username: s.username, started_at: String(s.started_at), attempt: String(attempt) } },
    };
  }

  function done(s: Tracking, res: HttpResult): PublishOutcome {
    const postId = publicPostId(res);
    if (!postId || !s.username) return { ok: true, status: 'published', id: postId ?? s.publish_id, url: profileUrl(s.username) };
    return { ok: true, status: 'published', id: postId, url: `${PROFILE}/@${s.username}/${s.kind}/${postId}` };
  }

  /** Polls the publish status until it settles or the time runs out; never reports a failure TikTok did not state. */
  async function follow(ctx: NetworkContext, t: string, s: Tracking): Promise<PublishOutcome> {
    for (;;) {
      let res: HttpResult;
      try {
        res = await request(ctx, `${api}/v2/post/publish/status/fetch/`, tiktokJson({ publish_id: s.publish_id }, t));
      } catch (err) {
        failureFromError(err); // rethrows what is not a network error
        return later(s);
      }
      if (!succeeded(res)) {
        const f = tiktokFailure(res, 'status check', ctx.now());
        if (f.kind === 'rejected') return f;
        return later(s, f.kind === 'rate_limited' ? f.retry_after : 0);
      }
      const data = field(res.json, 'data');
      const status = str(field(data, 'status'));
      if (status === 'PUBLISH_COMPLETE') return done(s, res);
      if (status === 'FAILED') {
        const reason = str(field(data, 'fail_reason')) ?? 'unknown';
        const message = `tiktok could not publish the post: ${reason}`;
        return codeFailure(reason, message) ?? rejected(message);
      }
      if (ctx.now() - s.started_at > maxProcessingMs) {
        return { ok: false, kind: 'timeout', error: `tiktok was still processing the post (${status ?? 'no status'}) after ${Math.round(maxProcessingMs / 3600_000)} h` };
      }
      if (ctx.now() + pollIntervalMs + reserveMs >= ctx.deadline) return later(s);
      await ctx.sleep(pollIntervalMs);
    }
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const invalid = checkContent(content);
    if (invalid) return invalid;
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    const prepared = await guardedBeforeCreate(async () => {
      const creator = await creatorInfo(ctx, api, t);
      if ('ok' in creator) return creator;
      const asked = content.options?.privacy_level;
      if (asked && !creator.privacyOptions.includes(asked)) return privacyRefused(asked, creator.privacyOptions);
      const privacy = asked ?? choosePrivacy(content.privacy, creator.privacyOptions);
      if (typeof privacy !== 'string') return privacy;
      return { creator, privacy };
    });
    if ('ok' in prepared) return prepared;
    const { creator, privacy } = prepared;
    const video = content.media.find((m) => m.kind === 'video');
    const postInfo = { title: content.text, privacy_level: privacy, disable_comment: creator.commentDisabled, disable_duet: creator.duetDisabled, disable_stitch: creator.stitchDisabled };
    let res = video
      ? await request(ctx, `${api}/v2/post/publish/video/init/`, tiktokJson({ post_info: postInfo, source_info: { source: 'PULL_FROM_URL', video_url: video.url } }, t))
      : await request(ctx, `${api}/v2/post/publish/content/init/`, tiktokJson({
        media_type: 'PHOTO',
        post_mode: 'DIRECT_POST',
        post_info: { ...(content.title !== undefined ? { title: content.title } : {}), description: content.text, privacy_level: privacy, disable_comment: creator.commentDisabled, auto_add_music: true },
        source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: content.media.map((m) => m.url) },
      }, t));
    if (video && !succeeded(res) && errorCode(res) === 'url_ownership_unverified') {
      // the link is not on a domain verified for this app: send the bytes instead (nothing was created by the refused init)
      const uploaded = await guardedBeforeCreate(() => fileUpload(ctx, t, postInfo, video));
      if ('ok' in uploaded) return uploaded;
      res = uploaded.res;
    }
    if (!succeeded(res)) return tiktokFailure(res, video ? 'video init' : 'photo init', ctx.now());
    const publishId = idString(field(field(res.json, 'data'), 'publish_id'));
    if (!publishId) return { ok: false, kind: 'timeout', error: 'tiktok accepted the post without a publish_id; it may or may not appear' };
    const username = creator.username ?? ctx.credentials.username ?? '';
    return follow(ctx, t, { publish_id: publishId, kind: video ? 'video' : 'photo', username, started_at: ctx.now(), attempt: 0 });
  }

  /**
   * FILE_UPLOAD: the video's bytes (ctx.fetchMedia, checked for type, size, duration and frame size) announced with
   * {source: FILE_UPLOAD, video_size, chunk_size, total_chunk_count}, then PUT to upload_url chunk by chunk with
   * Content-Range (the last chunk takes the remainder). Answers the init response for the status follow-up.
   */
  async function fileUpload(ctx: NetworkContext, t: string, postInfo: Record<string, unknown>, video: MediaItem): Promise<{ res: HttpResult } | Failure> {
    const file = await ctx.fetchMedia(video.url);
    const unfit = checkFile('tiktok', 'video', file, 0);
    if (unfit) return unfit;
    const size = file.bytes.length;
    const chunk = size < minChunkBytes ? size : Math.min(chunkBytes, size);
    const count = Math.max(1, Math.floor(size / chunk));
    const res = await request(ctx, `${api}/v2/post/publish/video/init/`, tiktokJson({
      post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: chunk, total_chunk_count: count },
    }, t));
    if (!succeeded(res)) return { res };
    const uploadUrl = str(field(field(res.json, 'data'), 'upload_url'));
    if (!uploadUrl) return { ok: false, kind: 'transient', error: 'tiktok FILE_UPLOAD init answered without an upload_url' };
    const type = file.content_type.startsWith('video/') ? file.content_type : 'video/mp4';
    for (let i = 0; i < count; i++) {
      const first = i * chunk;
      const last = i === count - 1 ? size - 1 : first + chunk - 1;
      const put = await request(ctx, uploadUrl, {
        method: 'PUT', headers: { 'content-type': type, 'content-range': `bytes ${first}-${last}/${size}` }, body: file.bytes.slice(first, last + 1),
      });
      if (put.status !== 201 && put.status !== 206 && put.status !== 200) return tiktokFailure(put, `video upload chunk ${i + 1}/${count}`, ctx.now());
    }
    return { res };
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    if (!state.publish_id) return rejected('tiktok resume state has no publish_id');
    const started = Number(state.started_at);
    return follow(ctx, t, {
      publish_id: state.publish_id, kind: state.kind === 'photo' ? 'photo' : 'video', username: state.username ?? ctx.credentials.username ?? '',
      started_at: Number.isFinite(started) ? started : ctx.now(), attempt: Number(state.attempt) || 0,
    });
  }

  return {
    name: 'tiktok',
    verify: createTikTokVerifier(opts).verify,
    check: checkContent,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    metrics: tiktokMetrics(api),
  };
}
