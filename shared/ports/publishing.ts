import type { PlatformName } from '../domain/platforms';
import type { NetworkResult, PostPayload } from '../domain/post';
import type { Account, Brand } from './store';
import type { EffectiveGuardrails } from './guardrails';
import type { ApprovalRule } from './approvals';

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
   * OAuth networks only: the envelope-encrypted TokenSet (shared/networks/oauth-tokens.ts), kept apart from the account
   * fields in credentials_enc so a refresh never touches them; publish gets `access_token` merged over those.
   */
  tokens_enc?: string;
  /** OAuth networks only: when the access token expires (ms), readable without decrypting (refresh decisions). */
  token_expires_at?: number;
  /** The network's own id of the connected account (page, profile, channel): a reconnect of it keeps this connection's id. */
  network_account_id?: string;
  /** When the sign-in lapses unless the user signs in again (ms): tokens that cannot be renewed, or a refresh token's end. */
  lapses_at?: number;
  /** When the renewal sweep should look at this connection next (ms); absent: never (shared/app/oauth/renewal-sweep.ts). */
  sweep_at?: number;
  /** The lapses_at a connection.expiring event was recorded for (once per lapse date). */
  expiring_notified?: number;
  /** Set while the network cannot be reached to check or renew the sign-in: since when, and what it answered. */
  network_down_since?: string;
  network_error?: string;
}

/** A connection due for the renewal sweep (the sweep index: enough to read the connection itself). */
export interface SweepDue { account_id: string; brand_id: string; platform: PlatformName; sweep_at: number }

export interface ConnectionStore {
  /** Saves the brand's connection for that network, replacing an earlier one. */
  put(connection: Connection): Promise<void>;
  get(accountId: string, brandId: string, platform: PlatformName): Promise<Connection | undefined>;
  listByAccount(accountId: string): Promise<Connection[]>;
  /** Removes a connection by id; false when it is not the account's. */
  delete(accountId: string, connectionId: string): Promise<boolean>;
  setStatus(accountId: string, brandId: string, platform: PlatformName, status: Connection['status']): Promise<void>;
  /** Stores refreshed tokens on that very connection (not a reconnect made meanwhile); false when it is gone. */
  saveTokens(connection: Connection, tokens: { tokens_enc: string; token_expires_at?: number; lapses_at?: number; sweep_at?: number }): Promise<boolean>;
  /**
   * Moves that very connection from active to reauth_required; true only for the caller that changed it, so the
   * connection.reauth_required event is recorded once per lost sign-in.
   */
  markReauth(connection: Connection): Promise<boolean>;
  /** Connections whose sweep_at is at or before `before` (ms), across accounts, earliest first, at most `limit`. */
  dueForSweep(before: number, limit: number): Promise<SweepDue[]>;
  /** Updates that very connection's sweep plan and network health fields; false when it is gone or replaced. */
  saveHealth(connection: Connection, fields: Pick<Connection, 'sweep_at' | 'lapses_at' | 'network_down_since' | 'network_error'>): Promise<boolean>;
  /** Records that connection.expiring was sent for this lapse date; true only for the first caller (once per date). */
  claimExpiringNotice(connection: Connection, lapsesAt: number): Promise<boolean>;
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
  /** Who published it (API key or AI app), and the counter of its guardrails cap it was counted on. */
  actor?: { kind: 'key' | 'app'; id: string; above?: string[] };
  cap_key?: string;
  /** Further monthly caps this post counts on (guardrails of the keys above the actor), given back with cap_key. */
  cap_keys?: string[];
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
  /** The post.published / post.failed event of the network's final outcome, stored with the result that settles it. */
  event?: ServiceEvent;
  /** When DELETE /api/posts/{id} took the post back on this network (ISO; shared/app/post-changes). */
  deleted_at?: string;
  /** A stale claim taken over by the reconciliation (a worker died mid-send): take-overs so far. */
  reconciles?: number;
  /** The post.reconciled event of a network decided by reconciliation, stored with the same settle as `event`. */
  reconciled_event?: ServiceEvent;
}

/** Fields written with a settle: deferrals, the reservation flag, and the resume state of a 'processing' network. */
export interface SettleExtra {
  deferrals?: number;
  reserved?: boolean;
  resume_enc?: string;
  resume_at?: number;
  resumes?: number;
  /** The post.reconciled event written with the settle (a network decided by reconciliation). */
  reconciled_event?: ServiceEvent;
}

/** What a claim must also match: the deferral the message carries, and for a resume step its number and due time. */
export interface ClaimMatch {
  deferrals?: number;
  resumes?: number;
  /** A 'processing' network is claimable only once its resume_at is at most this (ms). */
  dueBy?: number;
}

/** A post with every network's state and result, as one read (or one conditional write) answers it. */
export interface StoredPost {
  post: PostRecord;
  networks: NetworkRecord[];
}

/**
 * Posts. A post and its networks are one item: each network's state is a path of that item, so a claim and a
 * settle are single conditional updates that answer the whole post (no re-read), and a poll is one small read.
 */
export interface PostStore {
  /**
   * Writes the post with every network in one conditional put (the post id is new). With `reconcileAt` (ms), its
   * reconciliation marker on the due index is written first, so no post exists that the sweep cannot find.
   */
  create(post: PostRecord, networks: NetworkRecord[], reconcileAt?: number): Promise<void>;
  /**
   * Writes the post's reconciliation marker on the due index alone (idempotent), for a caller that writes it beside
   * other work and then creates the post without `reconcileAt`: the marker must be written before the post.
   */
  markForReconcile(postId: string, reconcileAt: number): Promise<void>;
  /** The post, its networks and (for posts stored before networks were part of the post item) their own items. */
  get(postId: string): Promise<StoredPost | undefined>;
  /** The state and result of these networks only (a small projected read for the API's wait). */
  poll(postId: string, platforms: PlatformName[]): Promise<Array<Pick<NetworkRecord, 'platform' | 'state' | 'result'>> | undefined>;
  /** Newest first, with each post's networks. */
  list(accountId: string, limit: number, before?: string): Promise<PostRecord[]>;
  /** The network states of many posts in a few batched reads (the activity log and its CSV export); by post id. */
  networksOf(posts: Array<Pick<PostRecord, 'id' | 'platforms'>>): Promise<Map<string, NetworkRecord[]>>;
  /**
   * Moves a network from one of `from` to `sending` (also matching `match`). Only one caller can win: the winner
   * gets the post as it is after the claim; a loser gets undefined. A `sending` claim is never taken again here.
   */
  claim(postId: string, platform: PlatformName, from: NetworkState[], nowMs: number, match?: ClaimMatch): Promise<StoredPost | undefined>;
  /**
   * Sets the final (or scheduled, or processing) state and result, with the outcome event when there is one; only
   * from `sending`, and with `claimedAt` only the claim made then (a claim taken over by reconciliation is no longer
   * the worker's): throws otherwise. Answers the post after the change.
   */
  settle(postId: string, platform: PlatformName, state: 'done' | 'scheduled' | 'processing', result: NetworkResult, extra?: SettleExtra, event?: ServiceEvent, claimedAt?: number): Promise<StoredPost>;
  findByNetworkId(accountId: string, platform: PlatformName, networkPostId: string): Promise<string | undefined>;
  /**
   * Takes over a claim whose worker stopped (the reconciliation): `sending` with exactly `seenClaimedAt` becomes
   * `sending` claimed at `nowMs`, take-overs + 1. Only one caller wins (the post after the change); a loser gets undefined.
   */
  takeOver(postId: string, platform: PlatformName, seenClaimedAt: number, nowMs: number): Promise<StoredPost | undefined>;
  /** The reconciliation's due index: posts whose marker is due at or before `beforeMs`, oldest first. */
  reconcileDue(beforeMs: number, limit: number): Promise<Array<{ post_id: string; due_at: number }>>;
  /** Moves a post's marker from `fromMs` to `toMs` (the new one written first), or removes it (`toMs` undefined). */
  moveReconcile(postId: string, fromMs: number, toMs: number | undefined): Promise<void>;
}

/** What the publish path reads from the account before sending: brands, connections, the actor's guardrails, approval rules. */
export interface PublishContext {
  /** The account item as stored (a plan change that came due is applied by AccountStore.get, not here). */
  account?: Account;
  brands: Brand[];
  connections: Connection[];
  /** The actor's guardrails in force (its own and those of the keys above it). */
  guardrails?: EffectiveGuardrails;
  approvalRules: ApprovalRule[];
}

/** Reads a PublishContext (with the account item) in one query of the account's partition. */
export interface PublishContextStore {
  load(accountId: string, actor?: { kind: 'key' | 'app'; id: string; above?: string[] }): Promise<PublishContext>;
}

export interface LockStore {
  /** Takes `key` for `ttlSeconds` unless held and unexpired; answers the holder's post id when refused. */
  acquire(key: string, postId: string, ttlSeconds: number, nowMs: number): Promise<{ ok: true } | { ok: false; heldBy: string }>;
  /** Releases `key` if `postId` still holds it. */
  release(key: string, postId: string): Promise<void>;
  /** Who holds `key` now (an unexpired hold), without taking it: POST /api/validate's duplicate check. */
  holder(key: string, nowMs: number): Promise<string | undefined>;
}

export interface PaceStore {
  /** Reserves the next slot of `key` spaced `spacingMs` apart; answers the slot time (ms). */
  reserve(key: string, spacingMs: number, nowMs: number): Promise<number>;
}

/** A recorded event (spec §6 body); delivery to webhook endpoints subscribes to these. */
export interface ServiceEvent {
  id: string;
  type: 'post.published' | 'post.failed' | 'post.deleted' | 'post.edited' | 'connection.reauth_required' | 'connection.expiring' | 'webhook.test' | 'approval.requested' | 'approval.decided' | 'post.reconciled';
  created_at: string;
  account_id: string;
  data: Record<string, unknown>;
}

/** Stored events. Recording an event only stores it: handing it to webhook endpoints is the EventFanOut's step. */
export interface EventSink {
  record(event: ServiceEvent): Promise<void>;
  /** The post's events: those stored with its networks' results and those recorded on their own, by id. */
  listForPost(postId: string): Promise<ServiceEvent[]>;
}

/**
 * Hands events to the account's webhook endpoints, in two steps around storing the event: `prepare` writes one
 * pending delivery per subscribed endpoint before the event is stored (so a stored event always has its
 * deliveries), and the function it answers queues their first tries after.
 */
export interface EventFanOut {
  prepare(event: ServiceEvent): Promise<() => Promise<void>>;
  /** The account's endpoints changed: its cached subscription list is dropped (this container sees it at once). */
  forget(accountId: string): void;
}
