import type { PlanName } from '../domain/plans';
import type { KeyScope } from '../domain/api-key';
import type { AccountBilling, PlanChange } from '../domain/billing';

/**
 * Persistence ports, one per aggregate. The DynamoDB adapters implement each with single-item conditional writes
 * (no transactions: the embedded engine has none), so every invariant holds under real concurrency.
 */

export interface Account {
  id: string;
  email: string;
  plan: PlanName;
  verified: boolean;
  created_at: string;
  brand_count: number;
  /** https origins redirect_after may lead to (PATCH /api/me); absent = none registered. */
  redirect_origins?: string[];
  // Billing: the subscription state the plan follows, its optimistic version, the customer, the last change.
  billing?: AccountBilling;
  billing_version?: number;
  billing_customer_id?: string;
  plan_change?: PlanChange;
}

export interface AccountStore {
  /** Claims an email for an account id; a lost race answers the id that holds it. */
  claimEmail(email: string, accountId: string): Promise<{ claimed: true } | { claimed: false; accountId: string }>;
  /** Writes the account once (a second write of the same id is a no-op). */
  createAccount(account: Account): Promise<void>;
  get(id: string): Promise<Account | undefined>;
  findIdByEmail(email: string): Promise<string | undefined>;
  markVerified(id: string): Promise<void>;
  setPlan(id: string, plan: PlanName): Promise<void>;
  /**
   * Adds one to brand_count if it stays within `limit`, noting `brandId` as pending until the brand is written
   * (settleBrand) or its place is given back (releaseBrand); false when the limit is reached.
   */
  reserveBrand(id: string, limit: number, brandId: string): Promise<boolean>;
  /** The pending brand was written: it keeps its place. False when it was not pending (settled or released already). */
  settleBrand(id: string, brandId: string): Promise<boolean>;
  /** The pending brand was not written: its place is given back. False when it was not pending (settled or released already). */
  releaseBrand(id: string, brandId: string): Promise<boolean>;
  /** Brands reserved and neither settled nor released yet (in flight, or left by a request that died). */
  pendingBrands(id: string): Promise<string[]>;
  /** Replaces the account's registered redirect origins. */
  setRedirectOrigins(id: string, origins: string[]): Promise<void>;
}

export interface ApiKeyRecord {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  created_at: string;
  expires_at?: string;
  revoked_at?: string;
  /** What the key may do; absent on keys issued before scopes existed (= all three). */
  scopes?: KeyScope[];
  /** A key minted by a key: the keys above it, nearest first (their guardrails bind this key too). */
  above?: string[];
}

export interface KeyStore {
  create(record: ApiKeyRecord): Promise<void>;
  getByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  listByAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when it is not the account's or was revoked already. */
  revoke(accountId: string, keyId: string, at: string): Promise<boolean>;
}

export interface Brand {
  id: string;
  account_id: string;
  name: string;
  timezone: string;
  slots: string[];
  created_at: string;
}

export interface BrandStore {
  /** Writes a new brand; false (and no change) when a brand with that id exists. */
  create(brand: Brand): Promise<boolean>;
  get(accountId: string, brandId: string): Promise<Brand | undefined>;
  list(accountId: string): Promise<Brand[]>;
  update(accountId: string, brandId: string, patch: Partial<Pick<Brand, 'name' | 'timezone' | 'slots'>>): Promise<Brand | undefined>;
}

/** One-time tokens (signup confirmation, magic links, connect links), stored by hash with an expiry. */
export interface OneTimeToken {
  kind: string;
  hash: string;
  account_id: string;
  data: Record<string, string>;
  expires_at: number;
  /** Set (epoch seconds) once the token was consumed. */
  used_at?: number;
}
export type ConsumeResult = { ok: true; token: OneTimeToken } | { ok: false; reason: 'missing' | 'used' | 'expired' };

export interface TokenStore {
  put(token: OneTimeToken): Promise<void>;
  /** Marks the token used, once: a second consume, or one after expiry, fails. */
  consume(kind: string, hash: string, nowMs: number): Promise<ConsumeResult>;
  /** Reads a token without using it (reusable links such as connect links); the caller checks expiry. */
  peek(kind: string, hash: string): Promise<OneTimeToken | undefined>;
}

/** Fixed-window counters for rate limits and usage. */
export interface CounterStore {
  /**
   * Adds `amount` to the counter `key` unless that would pass `limit`; the counter lives until `expiresAtSec`.
   * Answers whether it was added and the count after (the current total when refused; when added to a counter
   * spread over several items, the count of the item it went to). `spreadBy` (optional, e.g. a schedule id) places
   * it where the release with the same `spreadBy` looks first.
   */
  increment(key: string, amount: number, limit: number, expiresAtSec: number, spreadBy?: string): Promise<{ allowed: boolean; count: number }>;
  /** Gives back `amount` (never below zero), e.g. a post reservation whose network failed. */
  release(key: string, amount: number, spreadBy?: string): Promise<void>;
  get(key: string): Promise<number>;
  /** The counts of several counters in one read (e.g. the parts of a rolling window), in the order asked. */
  getMany(keys: string[]): Promise<number[]>;
}
