import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps';
import type { MediaItem } from '../../ports/media';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../domain/errors';
import { newId, randomBase62 } from '../../domain/ids';
import {
  MAX_UPLOAD_BYTES, MEDIA_GET_TTL_SECONDS, MEDIA_RETENTION_SECONDS, UPLOAD_URL_TTL_SECONDS, kindOfType, mediaFileName, mediaPath,
  mediaUrlPrefix, parseMediaFileName, parseMediaPath, type MediaContentType,
} from '../../domain/media';
import { sniffKind } from '../../media/sniff';

/** Reading the media items (no bytes): the table and the public base URL. */
type MediaItemDeps = Pick<Deps, 'uploads' | 'clock'> & { settings: Pick<Deps['settings'], 'publicBaseUrl'> };
/** Reaching the bytes too: the bucket. */
type MediaDeps = MediaItemDeps & Pick<Deps, 'blobs'>;

/** What POST /api/media/upload-url (and an upload link's page) gets back. */
export interface UploadUrl {
  upload_url: string;
  path: string;
  expires_in: number;
  method: 'PUT';
  /** Headers the PUT must carry exactly (they are signed). */
  headers: { 'content-type': MediaContentType };
}

/** What finalize answers. */
export interface FinalizedMedia {
  media_url: string;
  bytes: number;
  content_type: MediaContentType;
  kind: 'image' | 'video';
  expires_at: string;
}

const notUploaded = () => new NotFoundError('No uploaded file at this path: PUT the bytes to upload_url first (uploads are kept 30 days)');

/**
 * Starts an upload (spec §4 step 1): a presigned S3 PUT; the bytes never pass through the API.
 * 1. More than 50 MB: 413 too_large (the schema already refused a non-integer or non-positive size).
 * 2. A new media id, a random secret for its public URL, the object key media/<acc>/<med>.<ext>.
 * 3. Store the item: pending, deleted after 30 days.
 * 4. Presign a PUT that signs content-type and content-length, so storage refuses another type or size.
 */
export async function createUploadUrl(
  deps: MediaDeps, accountId: string, input: { content_type: MediaContentType; size_bytes: number }, opts: { linkHash?: string } = {},
): Promise<UploadUrl> {
  if (input.size_bytes > MAX_UPLOAD_BYTES) {
    throw new PayloadTooLargeError(`The file is larger than the upload limit of 50 MB (${MAX_UPLOAD_BYTES} bytes)`, {
      details: { max_bytes: MAX_UPLOAD_BYTES },
    });
  }
  const now = deps.clock.now();
  const id = newId('med', now);
  const key = mediaPath(accountId, id, input.content_type);
  const item: MediaItem = {
    id, account_id: accountId, key, content_type: input.content_type, size_bytes: input.size_bytes, state: 'pending',
    secret: randomBase62(22), created_at: new Date(now).toISOString(),
    ...(opts.linkHash ? { link_hash: opts.linkHash } : {}),
    expires_at: Math.floor(now / 1000) + MEDIA_RETENTION_SECONDS,
  };
  await deps.uploads.create(item);
  const upload_url = await deps.blobs.presignPut(key, input.content_type, input.size_bytes, UPLOAD_URL_TTL_SECONDS);
  return { upload_url, path: key, expires_in: UPLOAD_URL_TTL_SECONDS, method: 'PUT', headers: { 'content-type': input.content_type } };
}

/**
 * Finalizes an upload (spec §4 step 3): 200 with media_url once the right bytes are stored, 404 before.
 * 1. A path that does not parse, or is not the caller's: 404.
 * 2. The item: missing, another account's or past its 30 days: 404.
 * 3. The stored object: absent → 404 (not uploaded yet).
 * 4. Check it against the declaration (size, content type, first bytes); a mismatch deletes the object: 400
 *    upload_mismatch (the item stays pending, so a correct PUT to the same upload_url can follow).
 * 5. Mark the item uploaded and close the upload link it came through, if any.
 */
export async function finalizeUpload(deps: MediaDeps, accountId: string, path: string): Promise<FinalizedMedia> {
  const parsed = parseMediaPath(path);
  if (!parsed || parsed.accountId !== accountId) throw notUploaded();
  const item = await liveItem(deps, parsed.mediaId);
  if (!item || item.account_id !== accountId || item.key !== path) throw notUploaded();
  const uploaded = await verifyAndMark(deps, item);
  if (uploaded.link_hash) await deps.uploads.closeLink(uploaded.link_hash, uploaded.id, uploaded.uploaded_at!, nowSec(deps), uploaded.expires_at);
  return finalized(deps, uploaded);
}

/**
 * Checks the stored object of a live item and marks the item uploaded (shared by finalize and the upload page).
 * Throws 404 while nothing is stored, 400 upload_mismatch (object deleted) when it is not what was declared.
 */
export async function verifyAndMark(deps: MediaDeps, item: MediaItem): Promise<MediaItem> {
  const head = await deps.blobs.head(item.key);
  if (!head) throw notUploaded();
  if (item.state !== 'uploaded') {
    const problem = await mismatch(deps, item, head);
    if (problem) {
      await deps.blobs.delete(item.key);
      throw new BadRequestError(`The uploaded file is not what was declared: ${problem.reason}. It was deleted; ` +
        'PUT the right file to the same upload_url while it is valid, or ask for a new one', { code: 'upload_mismatch', details: { declared: { content_type: item.content_type, size_bytes: item.size_bytes }, found: problem.found } });
    }
  }
  const marked = await deps.uploads.markUploaded(item.id, new Date(deps.clock.now()).toISOString(), nowSec(deps));
  if (!marked) throw notUploaded();
  return marked;
}

/** Why the stored object is not the declared file, or undefined when it is. */
async function mismatch(deps: MediaDeps, item: MediaItem, head: { bytes: number; contentType?: string }) {
  const storedType = (head.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const found: Record<string, unknown> = { content_type: storedType || null, bytes: head.bytes };
  if (head.bytes !== item.size_bytes) return { reason: `it has ${head.bytes} bytes, not ${item.size_bytes}`, found };
  if (storedType !== item.content_type) return { reason: `it was stored as ${storedType || 'no content type'}, not ${item.content_type}`, found };
  const prefix = await deps.blobs.readRange(item.key, 0, Math.min(63, head.bytes - 1));
  const looksLike = looksLikeType(prefix);
  found.looks_like = looksLike ?? null;
  if (!matchesDeclared(item.content_type, prefix, looksLike)) {
    return { reason: looksLike ? `its content is ${looksLike}, not ${item.content_type}` : `its content is not a recognised ${kindOfType(item.content_type)}`, found };
  }
  return undefined;
}

/** The type the first bytes show (magic numbers), or undefined. */
function looksLikeType(prefix: Uint8Array): string | undefined {
  return sniffKind(prefix)?.content_type ?? (isClassicQuickTime(prefix) ? 'video/quicktime' : undefined);
}

/**
 * MP4 and QuickTime are both ISO base media files (an `ftyp` box); browsers and cameras label them loosely, so each
 * accepts the other. Old QuickTime files start without `ftyp`, with a moov/mdat/wide/free/skip/pnot atom.
 */
function matchesDeclared(declared: MediaContentType, prefix: Uint8Array, looksLike: string | undefined): boolean {
  if (declared === 'video/mp4' || declared === 'video/quicktime') {
    return looksLike === 'video/mp4' || looksLike === 'video/quicktime' || (declared === 'video/quicktime' && isClassicQuickTime(prefix));
  }
  return looksLike === declared;
}

function isClassicQuickTime(prefix: Uint8Array): boolean {
  const atom = prefix.length >= 8 ? String.fromCharCode(...prefix.subarray(4, 8)) : '';
  return ['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(atom);
}

export function finalized(deps: MediaItemDeps, item: MediaItem): FinalizedMedia {
  return {
    media_url: mediaUrl(deps, item), bytes: item.size_bytes, content_type: item.content_type, kind: kindOfType(item.content_type),
    expires_at: new Date(item.expires_at * 1000).toISOString(),
  };
}

/** The public URL of an uploaded item: `${PUBLIC_BASE_URL}/media/<med>-<secret>.<ext>`. */
export function mediaUrl(deps: { settings: Pick<Deps['settings'], 'publicBaseUrl'> }, item: MediaItem): string {
  return mediaUrlPrefix(deps.settings.publicBaseUrl) + mediaFileName(item.id, item.secret, item.content_type);
}

/** The item of a media_url file name, if it is uploaded and live (wrong secret, pending, expired: undefined). */
export async function uploadedItemOfFile(deps: MediaItemDeps, file: string): Promise<MediaItem | undefined> {
  const parsed = parseMediaFileName(file);
  if (!parsed) return undefined;
  const item = await liveItem(deps, parsed.mediaId);
  if (!item || item.state !== 'uploaded' || !sameSecret(item.secret, parsed.secret)) return undefined;
  if (!item.key.endsWith(`.${parsed.ext}`)) return undefined;
  return item;
}

/**
 * GET /media/{file}: where a network downloads an upload. Answers a fresh short-lived presigned GET of the object
 * (the caller redirects to it); 404 when the name is unknown, the upload is not finalized, or its 30 days passed.
 */
export async function mediaDownloadUrl(deps: MediaDeps, file: string): Promise<string> {
  const item = await uploadedItemOfFile(deps, file);
  if (!item) throw new NotFoundError('No such media file (uploads are kept 30 days)');
  return deps.blobs.presignGet(item.key, MEDIA_GET_TTL_SECONDS);
}

/** HEAD on a media_url: the file's type and size from the stored item (a presigned GET cannot answer a HEAD). */
export async function mediaFileHead(deps: MediaItemDeps, file: string): Promise<{ content_type: string; size_bytes: number }> {
  const item = await uploadedItemOfFile(deps, file);
  if (!item) throw new NotFoundError('No such media file (uploads are kept 30 days)');
  return { content_type: item.content_type, size_bytes: item.size_bytes };
}

/**
 * The origin presigned URLs point at (the bucket's S3 endpoint in AWS, the embedded server locally), for the upload
 * page's Content-Security-Policy. Signing is a local computation: nothing is sent.
 */
export async function storageOrigin(deps: Pick<Deps, 'blobs'>): Promise<string> {
  return new URL(await deps.blobs.presignPut('media/origin-probe', 'image/png', 1, 60)).origin;
}

/** The item, unless it is missing or past its expiry (TTL deletes lazily). */
export async function liveItem(deps: MediaItemDeps, id: string): Promise<MediaItem | undefined> {
  const item = await deps.uploads.get(id);
  return item && item.expires_at >= nowSec(deps) ? item : undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const nowSec = (deps: Pick<Deps, 'clock'>) => Math.floor(deps.clock.now() / 1000);
