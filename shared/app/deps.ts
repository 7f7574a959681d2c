import type { AccountStore, BrandStore, CounterStore, KeyStore, TokenStore } from '../ports/store';
import type { Mailer } from '../ports/mailer';
import type { Clock } from '../ports/clock';
import type { Cipher } from '../ports/cipher';
import type { Queue } from '../ports/queue';
import type { Scheduler } from '../ports/scheduler';
import type { Blobs } from '../ports/blobs';

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
  settings: {
    publicBaseUrl: string;
    runtime: 'aws' | 'local';
  };
}
