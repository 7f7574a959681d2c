import type { Deps } from '../deps';
import { parseMediaPath } from '../../domain/media';
import { finalized, type FinalizedMedia } from './uploads';
import { uploadLinkStatus, type LinkState } from './upload-links';

type LibraryDeps = Pick<Deps, 'uploads' | 'clock' | 'settings' | 'counters'>;

/** One uploaded file of the account, ready to post: its media_url and what it is. */
export type MediaView = FinalizedMedia & { id: string; uploaded_at?: string };

/**
 * The account's uploaded media, newest first (MCP list_media): each with the media_url to put in a post
 * (video_url, photo_url or media[].url). Paginated with `before` = next_before.
 */
export async function listMedia(deps: LibraryDeps, accountId: string, input: { limit: number; before?: string }) {
  const items = await deps.uploads.listUploaded(accountId, Math.floor(deps.clock.now() / 1000), input.limit, input.before);
  const media: MediaView[] = items.map((i) => ({ id: i.id, ...finalized(deps, i), ...(i.uploaded_at ? { uploaded_at: i.uploaded_at } : {}) }));
  return { media, next_before: items.length === input.limit ? items[items.length - 1]!.id : null };
}

/**
 * Where an upload link stands and, once the file arrived, its media_url (MCP get_media_upload): the link's status
 * (open, uploading, uploaded, expired); on `uploaded` (the page's completion already checked the stored file and
 * marked the upload) the answer carries media_url — the agent never handles the storage path.
 */
export async function uploadLinkMedia(deps: LibraryDeps, accountId: string, token: string): Promise<{ status: LinkState; expires_at: string; uploaded_at?: string; media?: FinalizedMedia }> {
  const st = await uploadLinkStatus(deps, accountId, token);
  const base = { status: st.status, expires_at: st.expires_at, ...(st.uploaded_at ? { uploaded_at: st.uploaded_at } : {}) };
  const mediaId = st.status === 'uploaded' && st.path ? parseMediaPath(st.path)?.mediaId : undefined;
  const item = mediaId ? await deps.uploads.get(mediaId) : undefined;
  if (!item || item.account_id !== accountId || item.state !== 'uploaded') return base;
  return { ...base, media: finalized(deps, item) };
}
