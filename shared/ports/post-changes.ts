import type { PlatformName } from '../domain/platforms';

/**
 * Deleting and editing published posts: each request is one change of one post (its networks' states and results
 * in one item, like a post), claimed and settled per network by the worker with conditional writes.
 */

export type ChangeKind = 'delete' | 'edit';

/** One network's answer to a delete or an edit (one element of results[] of DELETE / PATCH /api/posts/{id}). */
export interface ChangeResult {
  platform: PlatformName;
  ok: boolean;
  status: 'deleted' | 'edited' | 'failed' | 'unknown';
  code?: string;
  error?: string;
  what?: string;
  fix?: string;
  retry_after?: number;
  /** Where the post is now (edited posts whose link changed; the link that was deleted). */
  url?: string;
}

/** The new text of an edit: the post's text and per-network text / title overrides. */
export interface EditPayload {
  text?: string;
  title?: string;
  per_platform?: Partial<Record<PlatformName, { text?: string; title?: string }>>;
}

export interface PostChange {
  id: string;
  post_id: string;
  account_id: string;
  kind: ChangeKind;
  platforms: PlatformName[];
  created_at: string;
  /** The per-post lock this change holds while its networks run (released when all are done). */
  lock: string;
  edit?: EditPayload;
}

export type ChangeState = 'queued' | 'sending' | 'done';

export interface ChangeNetwork {
  platform: PlatformName;
  state: ChangeState;
  result?: ChangeResult;
  /** When a worker claimed it (ms): a claim older than STALE_CHANGE_CLAIM_MS may be taken again (deletes and edits repeat safely). */
  claimed_at?: number;
}

export interface StoredChange {
  change: PostChange;
  networks: ChangeNetwork[];
}

/** The changes of posts, stored under the post (one item per change). */
export interface PostChangeStore {
  /** Writes a new change with its networks (conditional: the change id is new). */
  create(change: PostChange, networks: ChangeNetwork[]): Promise<void>;
  get(postId: string, changeId: string): Promise<StoredChange | undefined>;
  /** Every change of the post, oldest first. */
  listForPost(postId: string): Promise<StoredChange[]>;
  /**
   * Moves a network of the change from queued (or a sending claim older than `staleBefore` ms) to sending; only one
   * caller wins and gets the change as it is after the claim; a loser gets undefined.
   */
  claim(postId: string, changeId: string, platform: PlatformName, nowMs: number, staleBefore: number): Promise<StoredChange | undefined>;
  /** Sets a network's final result (only from sending; throws otherwise) and answers the change after it. */
  settle(postId: string, changeId: string, platform: PlatformName, result: ChangeResult): Promise<StoredChange>;
  /**
   * Marks the post's network as deleted on the post itself (`deleted_at`, ISO), so the activity log and the post's
   * results show it without reading the changes.
   */
  markDeleted(postId: string, platform: PlatformName, at: string): Promise<void>;
}
