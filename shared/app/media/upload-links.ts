import type { Deps } from '../deps';
import type { UploadLink } from '../../ports/media';
import { BadRequestError, GoneError, NotFoundError } from '../../domain/errors';
import { randomToken } from '../../domain/ids';
import { sha256Hex } from '../../domain/api-key';
import { UPLOAD_LINK_TTL_SECONDS, UPLOAD_LINK_URLS_PER_LINK, parseMediaPath, type MediaContentType } from '../../domain/media';
import { hit, perHour } from '../rate-limit';
import { createUploadUrl, liveItem, verifyAndMark, type UploadUrl } from './uploads';

/** Upload links without the bytes: the table and the settings. */
type LinkItemDeps = Pick<Deps, 'uploads' | 'clock' | 'settings' | 'counters'>;
/** Signing an upload or checking its bytes: the bucket too. */
type LinkDeps = LinkItemDeps & Pick<Deps, 'blobs'>;

/** A token as issued (randomToken: 43 base64url characters); anything else is answered 404 without a lookup. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export type LinkState = 'open' | 'uploading' | 'uploaded' | 'expired';

/**
 * Creates a hosted upload link (POST /api/media/upload-link): a page where a person without an account picks a
 * file and uploads it from the browser, e.g. the client of an AI agent.
 * 1. A random token (256 bits); only its SHA-256 is stored, with the account, the optional type and note.
 * 2. Valid for 1 hour and for one uploaded file.
 */
export async function createUploadLink(deps: LinkItemDeps, accountId: string, input: { content_type?: MediaContentType; note?: string }) {
  const now = deps.clock.now();
  const token = randomToken();
  const link: UploadLink = {
    hash: sha256Hex(token), account_id: accountId,
    ...(input.content_type ? { content_type: input.content_type } : {}),
    ...(input.note ? { note: input.note } : {}),
    created_at: new Date(now).toISOString(),
    expires_at: Math.floor(now / 1000) + UPLOAD_LINK_TTL_SECONDS,
  };
  await deps.uploads.createLink(link);
  return {
    url: uploadPageUrl(deps, token), token, expires_in: UPLOAD_LINK_TTL_SECONDS,
    expires_at: new Date(link.expires_at * 1000).toISOString(),
    ...(input.content_type ? { content_type: input.content_type } : {}),
  };
}

export const uploadPageUrl = (deps: Pick<Deps, 'settings'>, token: string) => `${deps.settings.publicBaseUrl}/upload/${token}`;

/**
 * The link behind a token, for the page: 404 when unknown, 410 when used or expired.
 */
export async function openUploadLink(deps: LinkItemDeps, token: string): Promise<UploadLink> {
  const link = await findLink(deps, token);
  if (!link) throw new NotFoundError('This upload link does not exist: ask for a new one');
  if (link.used_at !== undefined) throw new GoneError('This upload link was used already: a file was uploaded through it. Ask for a new link to send another file', { code: 'link_used' });
  if (link.expires_at < nowSec(deps)) throw new GoneError('This upload link has expired (links work for 1 hour): ask for a new one', { code: 'link_expired' });
  return link;
}

/**
 * The page asks for an upload URL (POST /api/media/upload-link/{token}/url).
 * 1. The link must be open (404 / 410); the type must be the link's type when it names one.
 * 2. At most 10 URLs per link an hour (retries), on top of the route's per-IP limit.
 * 3. A presigned PUT for the link's account, as POST /api/media/upload-url makes it (413 over 50 MB).
 * 4. The link remembers this upload (conditional: a link used or expired meanwhile answers 410).
 */
export async function linkUploadUrl(deps: LinkDeps, token: string, input: { content_type: MediaContentType; size_bytes: number }): Promise<UploadUrl> {
  const link = await openUploadLink(deps, token);
  if (link.content_type && link.content_type !== input.content_type) {
    throw new BadRequestError(`This link accepts only ${link.content_type} files`, { code: 'unsupported_media_type', details: { accepted: [link.content_type] } });
  }
  await hit(deps, `upload-link-url#${link.hash}`, perHour(UPLOAD_LINK_URLS_PER_LINK));
  const upload = await createUploadUrl(deps, link.account_id, input, { linkHash: link.hash });
  const started = await deps.uploads.startLinkUpload(link.hash, parseMediaPath(upload.path)!.mediaId, nowSec(deps));
  if (!started) await openUploadLink(deps, token); // throws the 404/410 that applies now
  return upload;
}

/**
 * The page reports the PUT finished (POST /api/media/upload-link/{token}/complete): the stored file is checked as
 * finalize checks it, the upload is marked uploaded and the link is closed (single use; its status stays readable
 * as long as the upload lives). Calling it again for the same upload answers the same; the account still calls
 * finalize to get media_url.
 */
export async function completeLinkUpload(deps: LinkDeps, token: string, path: string) {
  const link = await findLink(deps, token);
  if (!link) throw new NotFoundError('This upload link does not exist');
  const parsed = parseMediaPath(path);
  if (!parsed || parsed.mediaId !== link.media_id) throw new NotFoundError('No upload with this path was started through this link');
  if (link.used_at === undefined) await openUploadLink(deps, token); // 410 when expired
  const item = await liveItem(deps, parsed.mediaId);
  if (!item || item.link_hash !== link.hash || item.key !== path) throw new NotFoundError('No upload with this path was started through this link');
  const uploaded = await verifyAndMark(deps, item);
  const closed = await deps.uploads.closeLink(link.hash, uploaded.id, uploaded.uploaded_at!, nowSec(deps), uploaded.expires_at);
  if (!closed) await openUploadLink(deps, token); // throws the 410 that applies now
  return { path: uploaded.key, bytes: uploaded.size_bytes, content_type: uploaded.content_type };
}

/**
 * Where an upload link stands, for the account that made it (GET /api/media/upload-link/{token}): open (nothing
 * yet), uploading (the page asked for an upload URL; `path` known), uploaded (done: call finalize with `path`) or
 * expired. Another account's or an unknown token: 404.
 */
export async function uploadLinkStatus(deps: LinkItemDeps, accountId: string, token: string) {
  const link = await findLink(deps, token);
  if (!link || link.account_id !== accountId) throw new NotFoundError('No such upload link');
  const item = link.media_id ? await deps.uploads.get(link.media_id) : undefined;
  const status: LinkState = link.used_at !== undefined ? 'uploaded' : link.expires_at < nowSec(deps) ? 'expired' : item ? 'uploading' : 'open';
  return {
    status,
    ...(item ? { path: item.key, content_type: item.content_type, bytes: item.size_bytes } : {}),
    expires_at: new Date(link.expires_at * 1000).toISOString(),
    ...(link.used_at ? { uploaded_at: link.used_at } : {}),
  };
}

async function findLink(deps: LinkItemDeps, token: string): Promise<UploadLink | undefined> {
  if (!TOKEN_RE.test(token)) return undefined;
  return deps.uploads.getLink(sha256Hex(token));
}

const nowSec = (deps: Pick<Deps, 'clock'>) => Math.floor(deps.clock.now() / 1000);
