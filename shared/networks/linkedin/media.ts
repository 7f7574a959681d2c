import type { Failure, FetchedMedia, NetworkContext } from '../../ports/networks';
import { jsonInit, request } from '../http';
import { field, num, str } from '../oauth-tokens';
import { linkedinFailure } from './rules';

/**
 * LinkedIn media uploads (Images API and Videos API): initializeUpload, PUT the bytes to the returned upload URL(s),
 * finalizeUpload for videos, and the video status read used by the processing loop.
 */

export interface LinkedinApi {
  base: string;
  /** Headers of every /rest call: Bearer token, LinkedIn-Version, X-Restli-Protocol-Version. */
  headers: Record<string, string>;
  token: string;
}

export const encodeUrn = (urn: string): string => encodeURIComponent(urn);

/** `POST /rest/images?action=initializeUpload` then `PUT uploadUrl` with the bytes → the image URN. */
export async function uploadImage(ctx: NetworkContext, api: LinkedinApi, owner: string, file: FetchedMedia, n: number): Promise<string | Failure> {
  const init = await request(ctx, `${api.base}/rest/images?action=initializeUpload`, jsonInit('POST', { initializeUploadRequest: { owner } }, api.headers));
  if (init.status !== 200 && init.status !== 201) return linkedinFailure(init, `image ${n} upload start`, ctx.now(), { media: true });
  const value = field(init.json, 'value');
  const uploadUrl = str(field(value, 'uploadUrl'));
  const image = str(field(value, 'image'));
  if (!uploadUrl || !image) return { ok: false, kind: 'transient', error: `linkedin image ${n} upload start answered without uploadUrl / image` };
  const put = await request(ctx, uploadUrl, {
    method: 'PUT',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': file.content_type || 'application/octet-stream' },
    body: new Uint8Array(file.bytes),
  });
  if (put.status < 200 || put.status >= 300) return linkedinFailure(put, `image ${n} upload`, ctx.now(), { media: true });
  return image;
}

/**
 * Document upload (PDF carousels): `POST /rest/documents?action=initializeUpload` {initializeUploadRequest: {owner}} →
 * {uploadUrl, document}; `PUT` the bytes to uploadUrl. The post then carries `content.media {id: document, title}`.
 */
export async function uploadDocument(ctx: NetworkContext, api: LinkedinApi, owner: string, file: FetchedMedia): Promise<string | Failure> {
  const init = await request(ctx, `${api.base}/rest/documents?action=initializeUpload`, jsonInit('POST', { initializeUploadRequest: { owner } }, api.headers));
  if (init.status !== 200 && init.status !== 201) return linkedinFailure(init, 'document upload start', ctx.now(), { media: true });
  const value = field(init.json, 'value');
  const uploadUrl = str(field(value, 'uploadUrl'));
  const document = str(field(value, 'document'));
  if (!uploadUrl || !document) return { ok: false, kind: 'transient', error: 'linkedin document upload start answered without uploadUrl / document' };
  const put = await request(ctx, uploadUrl, {
    method: 'PUT', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/pdf' }, body: new Uint8Array(file.bytes),
  });
  if (put.status < 200 || put.status >= 300) return linkedinFailure(put, 'document upload', ctx.now(), { media: true });
  return document;
}

/**
 * Video upload: `POST /rest/videos?action=initializeUpload` {owner, fileSizeBytes} → video URN, uploadToken and
 * byte ranges; `PUT` each range to its own URL (keeping each ETag, in order); `POST ?action=finalizeUpload`.
 * The video is then PROCESSING at LinkedIn; `videoStatus` tells when it is AVAILABLE.
 */
export async function uploadVideo(ctx: NetworkContext, api: LinkedinApi, owner: string, file: FetchedMedia): Promise<string | Failure> {
  const init = await request(ctx, `${api.base}/rest/videos?action=initializeUpload`, jsonInit('POST', {
    initializeUploadRequest: { owner, fileSizeBytes: file.bytes.byteLength, uploadCaptions: false, uploadThumbnail: false },
  }, api.headers));
  if (init.status !== 200 && init.status !== 201) return linkedinFailure(init, 'video upload start', ctx.now(), { media: true });
  const value = field(init.json, 'value');
  const video = str(field(value, 'video'));
  const instructions = field(value, 'uploadInstructions');
  if (!video || !Array.isArray(instructions) || instructions.length === 0) {
    return { ok: false, kind: 'transient', error: 'linkedin video upload start answered without a video URN or upload instructions' };
  }
  const etags: string[] = [];
  for (const [i, part] of instructions.entries()) {
    const url = str(field(part, 'uploadUrl'));
    const first = num(field(part, 'firstByte'));
    const last = num(field(part, 'lastByte'));
    if (!url || first === undefined || last === undefined) return { ok: false, kind: 'transient', error: `linkedin video upload instruction ${i + 1} is incomplete` };
    const put = await request(ctx, url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: file.bytes.slice(first, last + 1),
    });
    if (put.status < 200 || put.status >= 300) return linkedinFailure(put, `video part ${i + 1} upload`, ctx.now(), { media: true });
    const etag = put.headers.get('etag');
    if (!etag) return { ok: false, kind: 'transient', error: `linkedin video part ${i + 1} upload answered without an ETag` };
    etags.push(etag);
  }
  const finalize = await request(ctx, `${api.base}/rest/videos?action=finalizeUpload`, jsonInit('POST', {
    finalizeUploadRequest: { video, uploadToken: str(field(value, 'uploadToken')) ?? '', uploadedPartIds: etags },
  }, api.headers));
  if (finalize.status < 200 || finalize.status >= 300) return linkedinFailure(finalize, 'video upload finish', ctx.now(), { media: true });
  return video;
}

export type VideoStatus = { status: 'AVAILABLE' | 'PROCESSING' } | { status: 'FAILED'; reason: string };

/** `GET /rest/videos/<urn>` → AVAILABLE, PROCESSING (also WAITING_UPLOAD / unknown states) or FAILED with the reason. */
export async function videoStatus(ctx: NetworkContext, api: LinkedinApi, video: string): Promise<VideoStatus | Failure> {
  const res = await request(ctx, `${api.base}/rest/videos/${encodeUrn(video)}`, { headers: api.headers });
  if (res.status !== 200) return linkedinFailure(res, 'video status', ctx.now());
  const status = str(field(res.json, 'status'));
  if (status === 'AVAILABLE') return { status };
  if (status === 'PROCESSING_FAILED') return { status: 'FAILED', reason: str(field(res.json, 'processingFailureReason')) ?? 'no reason given' };
  return { status: 'PROCESSING' };
}
