import type { Failure, FetchedMedia, MediaItem, NetworkContext } from '../../ports/networks';
import { jsonInit, rejected, request } from '../http';
import { field, idString, num, str } from '../oauth-tokens';
import { xFailure } from './errors';
import { bearer } from './oauth';
import { isGif } from './limits';
import { isRecord } from '../../domain/values';

/**
 * X media upload v2, chunked for every kind: `POST /2/media/upload/initialize` {media_type, total_bytes,
 * media_category} → `POST /2/media/upload/{id}/append` (multipart: segment_index, media) per chunk, in order →
 * `POST /2/media/upload/{id}/finalize` → processing_info? polled with `GET /2/media/upload?command=STATUS&media_id=`.
 */

/** A media id and whether X is done with it ('ready') or still processing it ('pending', look again after `checkAfter` s). */
export type Uploaded = { id: string; state: 'ready' } | { id: string; state: 'pending'; checkAfter: number };

function category(item: MediaItem): string {
  if (item.kind === 'video') return 'tweet_video';
  return isGif(item) ? 'tweet_gif' : 'tweet_image';
}

function mediaType(item: MediaItem, file: FetchedMedia): string {
  const type = file.content_type.split(';')[0].trim().toLowerCase();
  if (/^(image|video)\//.test(type)) return type;
  if (item.content_type) return item.content_type;
  return item.kind === 'video' ? 'video/mp4' : isGif(item) ? 'image/gif' : 'image/jpeg';
}

/** Reads processing_info: none or succeeded → ready; pending / in_progress → pending; failed → bad_media. */
export function processingOf(id: string, data: unknown, n: number): Uploaded | Failure {
  const info = field(data, 'processing_info');
  if (!isRecord(info)) return { id, state: 'ready' };
  const state = str(field(info, 'state'));
  if (state === 'succeeded' || state === undefined) return { id, state: 'ready' };
  if (state === 'failed') {
    const error = field(info, 'error');
    const why = str(field(error, 'message')) ?? str(field(error, 'name')) ?? 'processing failed';
    return rejected(`x could not process media ${n}: ${why}`, 'bad_media');
  }
  return { id, state: 'pending', checkAfter: Math.max(1, num(field(info, 'check_after_secs')) ?? 5) };
}

/** Uploads one file in chunks; answers its media id and processing state. */
export async function uploadMedia(ctx: NetworkContext, api: string, token: string, item: MediaItem, file: FetchedMedia, n: number, chunkSize: number): Promise<Uploaded | Failure> {
  const total = file.bytes.length;
  if (total === 0) return rejected(`x: media ${n} (${item.url}) is empty`, 'bad_media');
  const init = await request(ctx, `${api}/2/media/upload/initialize`, jsonInit('POST', { media_type: mediaType(item, file), total_bytes: total, media_category: category(item) }, bearer(token)));
  if (init.status !== 200 && init.status !== 201 && init.status !== 202) return xFailure(init, `media ${n} initialize`, ctx.now(), true);
  const id = idString(field(field(init.json, 'data'), 'id'));
  if (!id) return { ok: false, kind: 'transient', error: `x media ${n} initialize answered without an id` };
  const base = `${api}/2/media/upload/${encodeURIComponent(id)}`;
  for (let at = 0, segment = 0; at < total; at += chunkSize, segment++) {
    const form = new FormData();
    form.append('segment_index', String(segment));
    form.append('media', new Blob([file.bytes.slice(at, Math.min(at + chunkSize, total))], { type: 'application/octet-stream' }), 'blob');
    const res = await request(ctx, `${base}/append`, { method: 'POST', headers: bearer(token), body: form });
    if (res.status < 200 || res.status >= 300) return xFailure(res, `media ${n} append`, ctx.now(), true);
  }
  const fin = await request(ctx, `${base}/finalize`, { method: 'POST', headers: bearer(token) });
  if (fin.status < 200 || fin.status >= 300) return xFailure(fin, `media ${n} finalize`, ctx.now(), true);
  return processingOf(id, field(fin.json, 'data'), n);
}

/** One STATUS check of a media id still processing. */
export async function mediaStatus(ctx: NetworkContext, api: string, token: string, id: string, n: number): Promise<Uploaded | Failure> {
  const res = await request(ctx, `${api}/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`, { headers: bearer(token) });
  if (res.status !== 200) return xFailure(res, `media ${n} status`, ctx.now(), true);
  return processingOf(id, field(res.json, 'data'), n);
}

/** Alt text of an uploaded image or GIF: `POST /2/media/metadata` {id, metadata: {alt_text: {text}}} (≤ 1000 characters). */
export async function setAltText(ctx: NetworkContext, api: string, token: string, id: string, text: string, n: number): Promise<Failure | undefined> {
  const res = await request(ctx, `${api}/2/media/metadata`, jsonInit('POST', { id, metadata: { alt_text: { text } } }, bearer(token)));
  if (res.status >= 200 && res.status < 300) return undefined;
  return xFailure(res, `media ${n} alt text`, ctx.now(), true);
}
