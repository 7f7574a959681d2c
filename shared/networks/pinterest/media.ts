import type { Failure, MediaItem, NetworkContext } from '../../ports/networks';
import { jsonInit, rejected, request } from '../http';
import { field, str } from '../oauth-tokens';
import { bearer, pinterestFailure } from './oauth';

/** Where a registered video upload stands: its id and Pinterest's status of it. */
export type MediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

/**
 * A video for a Pin (Pinterest's three steps): register the upload (`POST /v5/media {media_type: "video"}` →
 * {media_id, upload_url, upload_parameters}), send the bytes (ctx.fetchMedia) to upload_url as a multipart form
 * holding every upload parameter and then the `file`, and answer the media id; the caller polls its status.
 */
export async function uploadVideo(ctx: NetworkContext, api: string, token: string, item: MediaItem): Promise<string | Failure> {
  const reg = await request(ctx, `${api}/v5/media`, jsonInit('POST', { media_type: 'video' }, bearer(token)));
  if (reg.status !== 201 && reg.status !== 200) return pinterestFailure(reg, 'video upload registration');
  const mediaId = str(field(reg.json, 'media_id'));
  const uploadUrl = str(field(reg.json, 'upload_url'));
  if (!mediaId || !uploadUrl) return { ok: false, kind: 'transient', error: 'pinterest video upload registration answered without media_id or upload_url' };
  const file = await ctx.fetchMedia(item.url);
  const form = new FormData();
  const params = field(reg.json, 'upload_parameters');
  if (params && typeof params === 'object') for (const [k, v] of Object.entries(params)) if (typeof v === 'string') form.append(k, v);
  form.append('file', new Blob([Buffer.from(file.bytes)], { type: file.content_type }), file.filename);
  const up = await request(ctx, uploadUrl, { method: 'POST', body: form });
  if (up.status >= 300) {
    return up.status >= 500 || up.status === 429
      ? { ok: false, kind: 'transient', error: `pinterest video upload failed (HTTP ${up.status}); nothing was posted` }
      : rejected(`pinterest video upload was refused (HTTP ${up.status}): ${up.text.trim().slice(0, 200)}`, 'bad_media');
  }
  return mediaId;
}

/** `GET /v5/media/{id}`: the upload's status, or a Failure. */
export async function mediaStatus(ctx: NetworkContext, api: string, token: string, mediaId: string): Promise<MediaStatus | Failure> {
  const res = await request(ctx, `${api}/v5/media/${encodeURIComponent(mediaId)}`, { headers: bearer(token) });
  if (res.status !== 200) return pinterestFailure(res, 'video status');
  const status = str(field(res.json, 'status'));
  if (status === 'registered' || status === 'processing' || status === 'succeeded') return status;
  if (status === 'failed') return rejected('pinterest could not process the video (status failed): check its format (MP4, MOV or M4V, H.264) and length', 'bad_media');
  return { ok: false, kind: 'transient', error: `pinterest video status answered ${status ?? 'nothing'}` };
}
