import type { PlatformName } from '../../domain/platforms';
import { explain } from '../../domain/result-codes';
import type { Failure } from '../../ports/networks';
import type { ChangeKind, ChangeResult } from '../../ports/post-changes';

/**
 * The result codes only deletes and edits answer, with their plain-words what / fix (the codes they share with a
 * publish — reauth_required, rate_limited, timed_out, … — keep their words from shared/domain/result-codes.ts).
 */
export const CHANGE_CODES = {
  not_supported_delete: { what: "This network's API cannot delete a post.", fix: "Delete it in the network's own app or website." },
  not_supported_edit: { what: "This network's API cannot edit a published post.", fix: 'Delete it and post again: DELETE /api/posts/{id}?platforms=<network>, then POST /api/post with the new text.' },
  not_published: { what: 'There is no published post on this network to change: it failed, was held, or is still being sent.', fix: 'Nothing to take back here; GET /api/posts/{id} shows the result of each network.' },
  post_deleted: { what: 'This post was deleted from this network, so it cannot be edited.', fix: 'Post the new text again with POST /api/post.' },
} as const;

export function changeFailed(platform: PlatformName, code: string, error: string, extra: Partial<ChangeResult> = {}): ChangeResult {
  const words = code in CHANGE_CODES ? CHANGE_CODES[code as keyof typeof CHANGE_CODES] : explain(code);
  return { platform, ok: false, status: 'failed', code: code.startsWith('not_supported') ? 'not_supported' : code, error, ...words, ...extra };
}

export function changeDone(platform: PlatformName, kind: ChangeKind, url?: string): ChangeResult {
  return { platform, ok: true, status: kind === 'delete' ? 'deleted' : 'edited', ...(url ? { url } : {}) };
}

/** Maps an adapter Failure of a delete or edit to a result, as a publish does. */
export function changeFromFailure(platform: PlatformName, f: Failure): ChangeResult {
  switch (f.kind) {
    case 'rejected': return changeFailed(platform, f.code, f.error, { ...(f.what ? { what: f.what } : {}), ...(f.fix ? { fix: f.fix } : {}) });
    case 'rate_limited': return changeFailed(platform, 'rate_limited', f.error, { retry_after: f.retry_after });
    case 'reauth': return changeFailed(platform, 'reauth_required', f.error);
    case 'timeout': return changeFailed(platform, 'timed_out', f.error, { status: 'unknown' });
    case 'transient': return changeFailed(platform, 'network_error', f.error);
  }
}
