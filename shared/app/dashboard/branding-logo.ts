import { createHash } from 'node:crypto';
import type { Deps } from '../deps';
import { BadRequestError, NotFoundError } from '../../domain/errors';
import { kindOfType, MEDIA_GET_TTL_SECONDS, MEDIA_TYPES } from '../../domain/media';
import { ownFile } from '../media/own-media';
import { uploadedItemOfFile } from '../media/uploads';
import { bestEffort } from '../../log';

type LogoDeps = Pick<Deps, 'uploads' | 'blobs' | 'clock' | 'settings'>;

/** A logo larger than this is refused: it is shown 32 px high on the connect page. */
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const EXT = Object.values(MEDIA_TYPES).join('|');
const FILE_RE = new RegExp(`^(acc_[0-9A-HJKMNP-TV-Z]{26})-([0-9a-f]{32})\\.(${EXT})$`);

/**
 * Where a logo lives: `branding/<account>/<hash>.<ext>`, outside the `media/` prefix, so the bucket's 30-day media
 * expiry never deletes it.
 */
const brandingLogoKey = (accountId: string, hash: string, ext: string) => `branding/${accountId}/${hash}.${ext}`;

/** The public URL of a stored logo: `${PUBLIC_BASE_URL}/branding/<account>-<hash>.<ext>`. */
const brandingLogoUrl = (base: string, accountId: string, hash: string, ext: string) => `${base.replace(/\/+$/, '')}/branding/${accountId}-${hash}.${ext}`;

/** The logo a branding keeps: its public URL and, for a logo stored by the service, its object key. */
interface StoredLogo { logo_url: string; logo_key?: string }

/**
 * The logo a branding form names, kept where it does not expire:
 * - one of this deployment's media URLs (an upload): the object is copied to `branding/<account>/<hash>.<ext>` and
 *   the branding points at its own URL; an upload that is another account's, gone or not finalized, not an image, or
 *   over 2 MB is 400 `invalid_logo`;
 * - this account's own branding URL (the form shown again): kept, if the object is still there;
 * - any other link: kept as given, https only (400 `invalid_logo` otherwise): its host decides how long it lives.
 */
export async function storeLogo(deps: LogoDeps, accountId: string, url: string): Promise<StoredLogo> {
  const base = deps.settings.publicBaseUrl;
  const own = parseBrandingLogoUrl(base, url);
  if (own) {
    if (own.accountId !== accountId || !(await deps.blobs.head(own.key))) throw invalidLogo('that logo is not one of this account\'s stored logos');
    return { logo_url: url, logo_key: own.key };
  }
  const file = ownFile(deps, url);
  if (file === undefined) {
    if (!url.startsWith('https://')) throw invalidLogo('the logo URL must start with https://');
    return { logo_url: url };
  }
  const item = await uploadedItemOfFile(deps, file);
  if (!item || item.account_id !== accountId) throw invalidLogo('that upload does not exist, was not finalized, or is older than 30 days');
  if (kindOfType(item.content_type) !== 'image') throw invalidLogo('the logo must be an image (PNG, JPEG, WebP or GIF)');
  if (item.size_bytes > MAX_LOGO_BYTES) throw invalidLogo(`the logo must be at most ${MAX_LOGO_BYTES / 1024 / 1024} MB`);
  const hash = createHash('sha256').update(`${item.id}:${item.secret}`).digest('hex').slice(0, 32);
  const ext = MEDIA_TYPES[item.content_type];
  const key = brandingLogoKey(accountId, hash, ext);
  await deps.blobs.copy(item.key, key);
  return { logo_url: brandingLogoUrl(base, accountId, hash, ext), logo_key: key };
}

/** Deletes a logo a branding no longer uses (best effort: a leftover object costs storage, nothing else). */
export async function dropLogo(deps: Pick<Deps, 'blobs'>, key: string): Promise<void> {
  await bestEffort('branding logo delete', deps.blobs.delete(key), { key });
}

/**
 * GET /branding/{file}: a fresh short-lived presigned GET of a stored logo (the caller redirects to it); 404 for a
 * name that is not one, or a logo that was replaced.
 */
export async function brandingLogoDownloadUrl(deps: Pick<Deps, 'blobs'>, file: string): Promise<string> {
  const m = FILE_RE.exec(file);
  const key = m ? brandingLogoKey(m[1]!, m[2]!, m[3]!) : undefined;
  if (!key || !(await deps.blobs.head(key))) throw new NotFoundError('No such logo');
  return deps.blobs.presignGet(key, MEDIA_GET_TTL_SECONDS);
}

function parseBrandingLogoUrl(base: string, url: string): { accountId: string; key: string } | undefined {
  const prefix = `${base.replace(/\/+$/, '')}/branding/`;
  if (!url.startsWith(prefix)) return undefined;
  const m = FILE_RE.exec(url.slice(prefix.length));
  return m ? { accountId: m[1]!, key: brandingLogoKey(m[1]!, m[2]!, m[3]!) } : { accountId: '', key: '' };
}

const invalidLogo = (why: string) => new BadRequestError(`Invalid logo: ${why}`, { code: 'invalid_logo' });
