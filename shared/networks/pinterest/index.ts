import type { NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, guardedBeforeCreate, jsonInit, request } from '../http';
import { field, idString } from '../oauth-tokens';
import { trimBase } from '../../domain/values';
import { PINTEREST_API_BASE, bearer, pinterestFailure, type PinterestOptions } from './oauth';
import { checkPinterest } from './limits';
import { mediaStatus, uploadVideo } from './media';
import { pinterestReadBack } from './read-back';
import { pinterestMetrics } from './analytics';
import { account, createPinterestVerifier, type Account } from './verify-credentials';

export { createPinterestProvider } from './oauth';

export interface PinterestAdapterOptions extends PinterestOptions {
  /** Wait between video status polls inside one call. Default 2000 ms. */
  pollIntervalMs?: number;
  /** Time kept before the deadline for creating the Pin. Default 5000 ms. */
  reserveMs?: number;
  /** A video still processing at the deadline: ask to be resumed after this many seconds. Default 30. */
  resumeAfterSeconds?: number;
}

/**
 * Pinterest adapter (API v5). A Pin goes to per_platform.pinterest.board_id, else the connection's default board
 * (picked at connect): `POST /v5/pins {board_id, title?, description?, link?, alt_text?, media_source}` with
 * media_source {source_type: "image_url", url} for an image, or {source_type: "video_id", media_id,
 * cover_image_url?} for a video once its upload (media.ts) has succeeded. A video still processing near the
 * deadline → 'processing' with resume state {media_id, board_id}. The Pin's link: https://www.pinterest.com/pin/{id}/.
 */
export function createPinterestAdapter(opts: PinterestAdapterOptions = {}): NetworkAdapter {
  const api = trimBase(opts.apiBase ?? PINTEREST_API_BASE);
  const pollIntervalMs = opts.pollIntervalMs ?? 2000;
  const reserveMs = opts.reserveMs ?? 5000;
  const resumeAfter = opts.resumeAfterSeconds ?? 30;

  const boardOf = (content: PublishContent, a: Account) => content.options?.board_id ?? a.boardId;

  async function createPin(ctx: NetworkContext, a: Account, content: PublishContent, board: string, mediaSource: Record<string, string>): Promise<PublishOutcome> {
    const item = content.media[0];
    const body = {
      board_id: board,
      ...(content.title ? { title: content.title } : {}),
      ...(content.text ? { description: content.text } : {}),
      ...(content.options?.link ? { link: content.options.link } : {}),
      ...(item?.alt && item.kind === 'image' ? { alt_text: item.alt } : {}),
      media_source: mediaSource,
    };
    const res = await request(ctx, `${api}/v5/pins`, jsonInit('POST', body, bearer(a.token)));
    if (res.status !== 201 && res.status !== 200) return pinterestFailure(res, `pin on board ${board}`);
    const id = idString(field(res.json, 'id'));
    if (!id) return { ok: false, kind: 'transient', error: 'pinterest answered without a Pin id' };
    return { ok: true, status: 'published', id, url: `https://www.pinterest.com/pin/${id}/` };
  }

  /** Polls the video upload until it succeeded (then pins it), failed, or the deadline nears (processing). */
  async function finishVideo(ctx: NetworkContext, a: Account, content: PublishContent, board: string, mediaId: string): Promise<PublishOutcome> {
    for (let first = true; ; first = false) {
      if (!first) {
        if (ctx.now() + pollIntervalMs + reserveMs >= ctx.deadline) {
          return { ok: true, status: 'processing', id: mediaId, url: a.username ? `https://www.pinterest.com/${a.username}/` : 'https://www.pinterest.com/', resume: { after_seconds: resumeAfter, state: { media_id: mediaId, board_id: board } } };
        }
        await ctx.sleep(pollIntervalMs);
      }
      const s = await mediaStatus(ctx, api, a.token, mediaId);
      if (typeof s !== 'string') return s;
      if (s === 'succeeded') {
        const cover = content.options?.thumbnail_url;
        return createPin(ctx, a, content, board, { source_type: 'video_id', media_id: mediaId, ...(cover ? { cover_image_url: cover } : {}) });
      }
    }
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const invalid = checkPinterest(content);
    if (invalid) return invalid;
    const board = boardOf(content, a);
    if (!board) return { ok: false, kind: 'rejected', code: 'rejected', error: 'pinterest needs a board: send per_platform.pinterest.board_id, or reconnect Pinterest to choose a default board' };
    const item = content.media[0];
    if (item.kind === 'image') return createPin(ctx, a, content, board, { source_type: 'image_url', url: item.url });
    const mediaId = await guardedBeforeCreate(() => uploadVideo(ctx, api, a.token, item));
    if (typeof mediaId !== 'string') return mediaId;
    return finishVideo(ctx, a, content, board, mediaId);
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    if (!state.media_id || !state.board_id) return { ok: false, kind: 'rejected', code: 'rejected', error: 'pinterest resume state names no video upload' };
    return finishVideo(ctx, a, content, state.board_id, state.media_id);
  }

  return {
    name: 'pinterest',
    verify: createPinterestVerifier(opts).verify,
    check: checkPinterest,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    readBack: pinterestReadBack(api),
    metrics: pinterestMetrics(api),
  };
}
