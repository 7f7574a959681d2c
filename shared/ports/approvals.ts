import type { PlatformName } from '../domain/platforms';
import type { ValidPost } from '../domain/post';

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';
export type DecidedBy = 'owner' | 'client' | 'expiry';

/** A post held for approval (spec §3 pending_approval, §5.7). Nothing was sent or spent; its post id is reserved. */
export interface ApprovalRecord {
  id: string;
  account_id: string;
  brand_id: string;
  brand_name: string;
  /** The post id it publishes under once approved. */
  post_id: string;
  status: ApprovalStatus;
  /** Why it was held: an approval rule (account or brand) or the actor's always_require_approval guardrail. */
  reason: 'always' | 'networks' | 'guardrail' | 'requested';
  /** The post as checked when it was sent: approved, it goes through the same publish path with these. */
  post: ValidPost;
  platforms: PlatformName[];
  source: 'api' | 'schedule';
  schedule_id?: string;
  actor?: { kind: 'key' | 'app'; id: string; above?: string[] };
  /** The requesting key's prefix (svc_live_abcd…), for the owner to recognise. */
  requested_by: string | null;
  /** The name of the key (or AI app) that sent the post: what pages show. */
  requested_by_name?: string | null;
  /** The idempotency lock the held post keeps until it is decided (released on reject and expiry). */
  lock?: string;
  created_at: string;
  /** Epoch seconds: no decision by then → expired (the scheduler fires the expiry). */
  expires_at: number;
  decided_at?: string;
  decided_by?: DecidedBy;
  note?: string;
  /** Approved, but the publish path refused it (e.g. the brand is gone): its error. */
  publish_error?: { code: string; error: string };
}

/** Approval rules of the account (scope `account`) or one brand (scope = brand id). */
export interface ApprovalRule {
  account_id: string;
  scope: string;
  /** Hold every post. */
  always: boolean;
  /** Hold posts that include any of these networks. */
  networks: PlatformName[];
  updated_at: string;
}

/** Held posts and their rules. Deciding is one conditional write, so exactly one decision wins. */
export interface ApprovalStore {
  create(a: ApprovalRecord): Promise<void>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Newest first; `status` filters; continues after `before` (an approval id). */
  list(accountId: string, opts: { status?: ApprovalStatus; limit: number; before?: string }): Promise<ApprovalRecord[]>;
  /**
   * Moves a pending approval to its decision, once: a human decision only before expires_at, an expiry only from
   * expires_at on. Answers the decided record, or undefined when another decision (or the clock) won.
   */
  decide(id: string, d: { status: Exclude<ApprovalStatus, 'pending'>; decided_by: DecidedBy; note?: string; decided_at: string }, nowMs: number): Promise<ApprovalRecord | undefined>;
  setPublishError(id: string, error: { code: string; error: string }): Promise<void>;
  /** The account's approval that holds post `postId` (made in the same millisecond as the post id), if any. */
  findByPost(accountId: string, postId: string): Promise<ApprovalRecord | undefined>;
  getRules(accountId: string): Promise<ApprovalRule[]>;
  putRule(rule: ApprovalRule): Promise<void>;
}
