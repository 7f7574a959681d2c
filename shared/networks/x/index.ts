import type { Failure, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome, Published } from '../../ports/networks';
import { guarded, guardedBeforeCreate, jsonInit, request } from '../http';
import { field, idString } from '../oauth-tokens';
import { xFailure } from './errors';
import { createXManagement } from './manage';
import { mediaStatus, setAltText, uploadMedia, type Uploaded } from './media';
import { bearer, X_API_BASE, type XOptions } from './oauth';
import { checkContent, MEDIA_RULES } from './limits';
import { xReadBack } from './read-back';
import { accessToken, createXVerifier } from './verify-credentials';
import { checkFile } from '../media-fit';
import { xPostId } from './post-ref';
import { trimBase } from '../../domain/values';
import { xMetrics } from './analytics';

export { createXProvider, type XOptions } from './oauth';
export { weightedLength } from './limits';




export interface XAdapterOptions extends XOptions {
  /** Bytes per append (X takes up to 5 MB). Default 4 MiB. */
  chunkSize?: number;
  /** Time kept free before ctx.deadline: no media wait runs into it. Default 1000 ms. */
  reserveMs?: number;
  /** Media still processing this long after the upload → resume gives up with 'transient'. Default 1 h. */
  maxProcessingMs?: number;
}

const WEB = 'https://x.com';

/**
 * X adapter (API v2, OAuth 2.0 user token). Credentials: access_token, user_id, username.
 * Media (ctx.fetchMedia bytes, checked for type, size, video duration and frame size first): chunked upload v2
 * (media.ts), alt text of images and GIFs with `POST /2/media/metadata`; a video or GIF still processing is polled with STATUS,
 * waiting check_after_secs, while the deadline allows; else 'processing' with resume {media_ids, pending, started_at}
 * and resume() polls again, then posts. Post: `POST /2/tweets` {text, media?: {media_ids}}; thread entries as
 * replies to the previous post (reply.in_reply_to_tweet_id), the first comment as a reply to the first post (a
 * failing follow-up keeps what was posted). Failures: errors.ts (429 → x-rate-limit-reset; 401 → reauth; duplicate
 * and the monthly usage cap → rejected). url = https://x.com/<username>/status/<id>.
 * X credit accounting is not done here (the service prices and reserves credits before calling publish).
 */
export function createXAdapter(opts: XAdapterOptions = {}): NetworkAdapter {
  const api = trimBase(opts.apiBase ?? X_API_BASE);
  const chunkSize = Math.max(64 * 1024, opts.chunkSize ?? 4 * 1024 * 1024);
  const reserveMs = opts.reserveMs ?? 1000;
  const maxProcessingMs = opts.maxProcessingMs ?? 3600_000;

  const token = accessToken;

  const statusUrl = (username: string | undefined, id: string): string =>
    username ? `${WEB}/${encodeURIComponent(username)}/status/${id}` : `${WEB}/i/web/status/${id}`;

  async function tweet(ctx: NetworkContext, t: string, body: Record<string, unknown>, what: string): Promise<string | Failure> {
    const res = await request(ctx, `${api}/2/tweets`, jsonInit('POST', body, bearer(t)));
    if (res.status !== 201 && res.status !== 200) return xFailure(res, what, ctx.now());
    const id = idString(field(field(res.json, 'data'), 'id'));
    return id ?? { ok: false, kind: 'timeout', error: `x answered the ${what} without an id; it may or may not exist` };
  }

  /** The first post's own kind (per_platform options): a reply, a quote, a poll. */
  function kindOf(content: PublishContent): Record<string, unknown> {
    const o = content.options ?? {};
    const replyTo = o.reply_to !== undefined ? xPostId(o.reply_to) : undefined;
    const quote = o.quote !== undefined ? xPostId(o.quote) : undefined;
    return {
      ...(replyTo ? { reply: { in_reply_to_tweet_id: replyTo } } : {}),
      ...(quote ? { quote_tweet_id: quote } : {}),
      ...(o.poll ? { poll: { options: o.poll.options, duration_minutes: o.poll.duration_minutes } } : {}),
    };
  }

  /** Posts the first post, the thread and the first comment. */
  async function post(ctx: NetworkContext, t: string, content: PublishContent, mediaIds: string[]): Promise<PublishOutcome> {
    const first = await tweet(ctx, t, { text: content.text, ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}), ...kindOf(content) }, 'post');
    if (typeof first !== 'string') return first;
    const username = ctx.credentials.username;
    const result: Published = { ok: true, status: 'published', id: first, url: statusUrl(username, first) };
    try {
      let parent = first;
      for (const [i, text] of content.thread.entries()) {
        const reply = await tweet(ctx, t, { text, reply: { in_reply_to_tweet_id: parent } }, `thread post ${i + 1}`);
        if (typeof reply !== 'string') return result;
        (result.thread_ids ??= []).push(reply);
        parent = reply;
      }
      if (content.first_comment !== undefined) {
        const comment = await tweet(ctx, t, { text: content.first_comment, reply: { in_reply_to_tweet_id: first } }, 'first comment');
        if (typeof comment === 'string') result.comment_id = comment;
      }
    } catch {
      // timeout / unreachable after the first post: keep what was published
    }
    return result;
  }

  /**
   * Waits for media still processing while the deadline allows (sleeping check_after_secs between STATUS checks),
   * then posts; else answers 'processing' to be resumed.
   */
  async function settle(ctx: NetworkContext, t: string, content: PublishContent, ids: string[], uploads: Uploaded[], startedAt: number, attempt: number): Promise<PublishOutcome> {
    let pending = uploads.filter((u): u is Extract<Uploaded, { state: 'pending' }> => u.state === 'pending');
    while (pending.length) {
      const wait = Math.max(...pending.map((p) => p.checkAfter)) * 1000;
      if (ctx.now() - startedAt > maxProcessingMs) {
        return { ok: false, kind: 'transient', error: `x was still processing the media after ${Math.round(maxProcessingMs / 60_000)} min; nothing was posted` };
      }
      if (ctx.now() + wait + reserveMs >= ctx.deadline) {
        return {
          ok: true, status: 'processing', id: pending[0].id, url: ctx.credentials.username ? `${WEB}/${encodeURIComponent(ctx.credentials.username)}` : WEB,
          resume: { after_seconds: Math.ceil(wait / 1000), state: { media_ids: ids.join(','), pending: pending.map((p) => p.id).join(','), started_at: String(startedAt), attempt: String(attempt + 1) } },
        };
      }
      await ctx.sleep(wait);
      const next: typeof pending = [];
      for (const p of pending) {
        const status = await guardedBeforeCreate(() => mediaStatus(ctx, api, t, p.id, ids.indexOf(p.id) + 1));
        if ('ok' in status) return status;
        if (status.state === 'pending') next.push(status);
      }
      pending = next;
    }
    return post(ctx, t, content, ids);
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const invalid = checkContent(content);
    if (invalid) return invalid;
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    const uploads = await guardedBeforeCreate(async () => {
      const done: Uploaded[] = [];
      for (const [i, item] of content.media.entries()) {
        const file = await ctx.fetchMedia(item.url);
        const unfit = checkFile('x', MEDIA_RULES, item.kind, file, i);
        if (unfit) return unfit;
        const up = await uploadMedia(ctx, api, t, item, file, i + 1, chunkSize);
        if ('ok' in up) return up;
        // alt text: images and GIFs (X's media metadata takes no alt text for videos)
        if (item.alt && item.kind === 'image') {
          const alt = await setAltText(ctx, api, t, up.id, item.alt, i + 1);
          if (alt) return alt;
        }
        done.push(up);
      }
      return done;
    });
    if (!Array.isArray(uploads)) return uploads;
    return settle(ctx, t, content, uploads.map((u) => u.id), uploads, ctx.now(), 0);
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const t = token(ctx.credentials);
    if (typeof t !== 'string') return t;
    const ids = (state.media_ids ?? '').split(',').filter(Boolean);
    const pending = (state.pending ?? '').split(',').filter(Boolean);
    const started = Number(state.started_at);
    const uploads: Uploaded[] = [];
    for (const id of pending) {
      const status = await guardedBeforeCreate(() => mediaStatus(ctx, api, t, id, ids.indexOf(id) + 1));
      if ('ok' in status) return status;
      uploads.push(status);
    }
    return settle(ctx, t, content, ids, uploads, Number.isFinite(started) ? started : ctx.now(), Number(state.attempt) || 0);
  }

  return {
    name: 'x',
    verify: createXVerifier(opts).verify,
    check: checkContent,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    ...createXManagement({ api }),
    readBack: xReadBack(api),
    metrics: xMetrics(api),
  };
}
