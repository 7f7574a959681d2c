import type { PlatformName } from '../domain/platforms';
import type { NetworkResult, PostPayload } from '../domain/post';

/** Persistence ports of the publishing core. Every invariant is a single-item conditional write. */

export interface Connection {
  id: string;
  account_id: string;
  brand_id: string;
  platform: PlatformName;
  handle: string;
  label: string;
  status: 'active' | 'reauth_required';
  connected_at: string;
  /** Envelope-encrypted JSON of the network credentials; never returned by any endpoint. */
  credentials_enc: string;
  /**
   * OAuth networks only: the envelope-encrypted TokenSet (shared/networks/oauth.ts), kept apart from the account
   * fields in credentials_enc so a refresh never touches them; publish gets `access_token` merged over those.
   */
  tokens_enc?: string;
  /** OAuth networks only: when the access token expires (ms), readable without decrypting (refresh decisions). */
  token_expires_at?: number;
}

export interface ConnectionStore {
  /** Saves the brand's connection for that network, replacing an earlier one. */
  put(connection: Connection): Promise<void>;
  get(accountId: string, brandId: string, platform: PlatformName): Promise<Connection | undefined>;
  listByAccount(accountId: string): Promise<Connection[]>;
  /** Removes a connection by id; false when it is not the account's. */
  delete(accountId: string, connectionId: string): Promise<boolean>;
  setStatus(accountId: string, brandId: string, platform: PlatformName, status: Connection['status']): Promise<void>;
  /** Stores refreshed tokens on that very connection (not a reconnect made meanwhile); false when it is gone. */
  saveTokens(connection: Connection, tokens: { tokens_enc: string; token_expires_at?: number }): Promise<boolean>;
  /**
   * Moves that very connection from active to reauth_required; true only for the caller that changed it, so the
   * connection.reauth_required event is recorded once per lost sign-in.
   */
  markReauth(connection: Connection): Promise<boolean>;
}

export interface PostRecord {
  id: string;
  account_id: string;
  brand_id: string;
  brand_name: string;
  source: 'api' | 'schedule';
  schedule_id?: string;
  idempotency_key: string | null;
  /** The duplicate-protection lock this post holds (released when every network failed). */
  lock?: string;
  platforms: PlatformName[];
  payload: PostPayload;
  created_at: string;
  /** Who published it (API key or AI app; issue 16), and the counter of its guardrails cap it was counted on. */
  actor?: { kind: 'key' | 'app'; id: string };
  cap_key?: string;
  /** The approval it was held for (published once approved). */
  approval_id?: string;
}

/** One network of one post: the unit the worker claims, so a network is published at most once. */
export type NetworkState = 'queued' | 'sending' | 'scheduled' | 'processing' | 'done';

export interface NetworkRecord {
  post_id: string;
  account_id: string;
  platform: PlatformName;
  state: NetworkState;
  result?: NetworkResult;
  /** When the worker claimed it (ms), to recognise a crashed worker's claim. */
  claimed_at?: number;
  /** Rate-limit deferrals so far. */
  deferrals: number;
  /** True while the network holds a reservation on the month's post counter. */
  reserved: boolean;
  /** X only: the credits reserved for this network (given back when it fails). */
  x_credits?: number;
  /** state 'processing': the adapter's resume state (encrypted JSON), when to resume (ms), and resumes so far. */
  resume_enc?: string;
  resume_at?: number;
  resumes?: number;
}

/** Fields written with a settle: deferrals, the reservation flag, and the resume state of a 'processing' network. */
export interface SettleExtra {
  deferrals?: number;
  reserved?: boolean;
  resume_enc?: string;
  resume_at?: number;
  resumes?: number;
}

export interface PostStore {
  /** Writes the networks first, then the post item (a crash in between leaves no visible post). */
  create(post: PostRecord, networks: NetworkRecord[]): Promise<void>;
  get(postId: string): Promise<{ post: PostRecord; networks: NetworkRecord[] } | undefined>;
  /** Newest first. */
  list(accountId: string, limit: number, before?: string): Promise<PostRecord[]>;
  /** The network items of many posts in a few batched reads (the activity log and its CSV export); by post id. */
  networksOf(posts: Array<Pick<PostRecord, 'id' | 'platforms'>>): Promise<Map<string, NetworkRecord[]>>;
  /**
   * Moves a network from one of `from` to `sending`. Only one caller can win; a `sending` claim older than
   * `staleBeforeMs` can be taken over only by `takeOverStale` (to close it as unknown, never to resend).
   */
  claim(postId: string, platform: PlatformName, from: NetworkState[], nowMs: number): Promise<boolean>;
  /** Sets the final (or scheduled, or processing) state and result; only from `sending`. */
  settle(postId: string, platform: PlatformName, state: 'done' | 'scheduled' | 'processing', result: NetworkResult, extra?: SettleExtra): Promise<void>;
  /** Writes a result without a claim (checks before sending). */
  setResult(postId: string, platform: PlatformName, result: NetworkResult): Promise<void>;
  findByNetworkId(accountId: string, platform: PlatformName, networkPostId: string): Promise<string | undefined>;
}

export interface LockStore {
  /** Takes `key` for `ttlSeconds` unless held and unexpired; answers the holder's post id when refused. */
  acquire(key: string, postId: string, ttlSeconds: number, nowMs: number): Promise<{ ok: true } | { ok: false; heldBy: string }>;
  /** Releases `key` if `postId` still holds it. */
  release(key: string, postId: string): Promise<void>;
}

export interface PaceStore {
  /** Reserves the next slot of `key` spaced `spacingMs` apart; answers the slot time (ms). */
  reserve(key: string, spacingMs: number, nowMs: number): Promise<number>;
}

/** A recorded event (spec §6 body); delivery to webhook endpoints subscribes to these. */
export interface ServiceEvent {
  id: string;
  type: 'post.published' | 'post.failed' | 'connection.reauth_required' | 'webhook.test' | 'approval.requested' | 'approval.decided';
  created_at: string;
  account_id: string;
  data: Record<string, unknown>;
}

export interface EventSink {
  record(event: ServiceEvent): Promise<void>;
  listForPost(postId: string): Promise<ServiceEvent[]>;
}
