import type { AccountStore, BrandStore, CounterStore, KeyStore, TokenStore } from '../ports/store';
import type { Mailer } from '../ports/mailer';
import type { Clock } from '../ports/clock';
import type { Cipher } from '../ports/cipher';
import type { Queue } from '../ports/queue';
import type { Scheduler } from '../ports/scheduler';
import type { Blobs } from '../ports/blobs';
import type { ConnectionStore, EventSink, LockStore, PaceStore, PostStore } from '../ports/publishing';
import type { Registry } from '../networks/registry';
import type { FetchedMedia } from '../networks/types';

/** Media links: a one-time check before sending and a capped download for networks that need the bytes. */
export interface MediaGateway {
  probe(url: string): Promise<{ ok: true; content_type: string; kind: 'image' | 'video'; bytes?: number } | { ok: false; reason: string }>;
  download(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** Throws UnsafeTargetError when a credential URL (instance, site, webhook) points at a non-public address. */
  checkTarget(url: string): Promise<void>;
}

/** Everything a use case may need, built once per cold start by shared/container.ts. */
export interface Deps {
  accounts: AccountStore;
  keys: KeyStore;
  brands: BrandStore;
  tokens: TokenStore;
  counters: CounterStore;
  mailer: Mailer;
  clock: Clock;
  cipher: Cipher;
  queue: Queue;
  scheduler: Scheduler;
  blobs: Blobs;
  connections: ConnectionStore;
  posts: PostStore;
  locks: LockStore;
  pace: PaceStore;
  events: EventSink;
  networks: Registry;
  media: MediaGateway;
  settings: {
    publicBaseUrl: string;
    runtime: 'aws' | 'local';
    publishQueueUrl: string;
    /** Each network call's deadline (ms). */
    networkTimeoutMs: number;
    /** How long POST /api/post waits for the workers' results (ms). */
    publishWaitMs: number;
    /** Local benchmarks only: request rate limits off. */
    rateLimitsOff?: boolean;
  };
}
