import type { MediaContentType } from '../domain/media';

/**
 * Persistence of media uploads and hosted upload links (spec §4, §3). The DynamoDB adapter implements it with
 * single-item conditional writes; every condition on these expiring items checks `expires_at` itself.
 */

/** One upload: declared at POST /api/media/upload-url, `uploaded` once finalize found the right bytes. */
export interface MediaItem {
  id: string;
  account_id: string;
  /** Object key in the media bucket, also the `path` shown to the owner. */
  key: string;
  content_type: MediaContentType;
  /** Declared size; the stored object must have exactly this many bytes. */
  size_bytes: number;
  state: 'pending' | 'uploaded';
  /** Random part of the public file name (media_url); compared on every GET /media/{file}. */
  secret: string;
  created_at: string;
  uploaded_at?: string;
  /** Hash of the upload link the URL was asked through, if any (finalize then closes that link). */
  link_hash?: string;
  /** Epoch seconds: created + 30 days (TTL attribute). */
  expires_at: number;
}

/** A hosted upload link (POST /api/media/upload-link), stored by the SHA-256 of its token. */
export interface UploadLink {
  hash: string;
  account_id: string;
  /** When set, the page accepts only this type. */
  content_type?: MediaContentType;
  /** Shown on the page (plain text). */
  note?: string;
  created_at: string;
  /** The upload last started through the link (its media id), once the page asked for an upload URL. */
  media_id?: string;
  /** Set once a file arrived through the link: the link is then done (single use). */
  used_at?: string;
  expires_at: number;
}

export interface MediaStore {
  /** Writes a new media item (a repeated id is refused: the write is conditional on absence). */
  create(item: MediaItem): Promise<void>;
  get(id: string): Promise<MediaItem | undefined>;
  /** pending → uploaded, if the item exists and has not expired; answers the item as it is after the call. */
  markUploaded(id: string, at: string, nowSec: number): Promise<MediaItem | undefined>;
  delete(id: string): Promise<void>;

  createLink(link: UploadLink): Promise<void>;
  getLink(hash: string): Promise<UploadLink | undefined>;
  /** Records the upload started through the link; false when the link is used, expired or missing. */
  startLinkUpload(hash: string, mediaId: string, nowSec: number): Promise<boolean>;
  /**
   * Marks the link used, once, if `mediaId` is its current upload, and keeps it until `keepUntilSec` (so its status
   * can be read while the upload lives); false otherwise.
   */
  closeLink(hash: string, mediaId: string, at: string, nowSec: number, keepUntilSec: number): Promise<boolean>;
  deleteLink(hash: string): Promise<void>;

  /**
   * Media items and upload links whose expiry has passed (at most `limit`). Used only by the local runtime's
   * sweep: in AWS, DynamoDB TTL and the bucket's lifecycle rule delete them.
   */
  /**
   * The account's uploaded (finalized or completed through a link), unexpired media, newest first; reads at most
   * `limit` items (pending ones are read but not answered); `before` (a media id from the previous page) pages on.
   */
  listUploaded(accountId: string, nowSec: number, limit: number, before?: string): Promise<MediaItem[]>;
  listExpired(nowSec: number, limit: number): Promise<{ media: MediaItem[]; links: UploadLink[] }>;
}
