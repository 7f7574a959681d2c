import { isId } from './ids';
import { trimBase } from './values';

/**
 * Media uploads (spec §4 "Media upload flow", §3 upload states, §8.3): the accepted content types, the size limit,
 * how long things live, and the two names an upload has — its `path` (the object key, shown to its owner) and its
 * public file name (the last segment of `media_url`, unguessable).
 */

/** Content types of spec §4, each with the file extension its object key and media_url carry. */
export const MEDIA_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
} as const;
export type MediaContentType = keyof typeof MEDIA_TYPES;
export type MediaExtension = (typeof MEDIA_TYPES)[MediaContentType];
export const MEDIA_CONTENT_TYPES = Object.keys(MEDIA_TYPES) as [MediaContentType, ...MediaContentType[]];

/** Largest upload (spec §8.3): 50 MB, counted as 50 × 1024 × 1024 bytes. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Stored media is deleted after 30 days (spec §3, §8.3), counted from the upload URL's creation. */
export const MEDIA_RETENTION_SECONDS = 30 * 86_400;
/** Life of a presigned PUT: short, because a URL signed by a Lambda role dies with the role's session anyway. */
export const UPLOAD_URL_TTL_SECONDS = 900;
/** Life of the presigned GET that GET /media/{file} redirects to (networks download right after the redirect). */
export const MEDIA_GET_TTL_SECONDS = 600;
/** A hosted upload link works for 1 hour (like a connect link, spec §8.3) and for one upload. */
export const UPLOAD_LINK_TTL_SECONDS = 3600;
/** Upload URLs one upload link may ask for (a person retrying a failed upload), on top of the per-IP route limit. */
export const UPLOAD_LINK_URLS_PER_LINK = 10;

export const kindOfType = (type: MediaContentType): 'image' | 'video' => (type.startsWith('image/') ? 'image' : 'video');

const EXT = Object.values(MEDIA_TYPES).join('|');
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const PATH_RE = new RegExp(`^media/(acc_${ULID})/(med_${ULID})\\.(${EXT})$`);
const FILE_RE = new RegExp(`^(med_${ULID})-([0-9A-Za-z]{22})\\.(${EXT})$`);

/** The object key of an upload, which is also the `path` its owner passes to finalize. */
export function mediaPath(accountId: string, mediaId: string, type: MediaContentType): string {
  return `media/${accountId}/${mediaId}.${MEDIA_TYPES[type]}`;
}

/** Parses a `path`; undefined for anything that is not one (callers answer 404). */
export function parseMediaPath(path: string): { accountId: string; mediaId: string; ext: MediaExtension } | undefined {
  const m = PATH_RE.exec(path);
  if (!m || !isId('acc', m[1]) || !isId('med', m[2])) return undefined;
  return { accountId: m[1]!, mediaId: m[2]!, ext: m[3] as MediaExtension };
}

/** The last segment of a media_url: `<med id>-<secret>.<ext>`; the secret makes it unguessable. */
export function mediaFileName(mediaId: string, secret: string, type: MediaContentType): string {
  return `${mediaId}-${secret}.${MEDIA_TYPES[type]}`;
}

/** Parses a media_url file name; undefined for anything that is not one (answered 404). */
export function parseMediaFileName(file: string): { mediaId: string; secret: string; ext: MediaExtension } | undefined {
  const m = FILE_RE.exec(file);
  if (!m || !isId('med', m[1])) return undefined;
  return { mediaId: m[1]!, secret: m[2]!, ext: m[3] as MediaExtension };
}

/** Where the public media URLs of this deployment live: `${publicBaseUrl}/media/`. */
export const mediaUrlPrefix = (publicBaseUrl: string) => `${trimBase(publicBaseUrl)}/media/`;
