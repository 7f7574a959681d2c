import type { Config } from '../config';
import type { PlatformName } from '../domain/platforms';
import type { Failure, NetworkAdapter, NetworkVerifier, PublishContent } from '../ports/networks';
import type { ManageFlags, PostOption, PostRefRule } from '../ports/network-limits';
import type { OAuthProvider } from '../ports/oauth';
import type { MediaRules } from './media-rules';

/** A network's checks that need no network call (length limits, media fit): undefined when the content fits. */
export type ContentCheck = (content: PublishContent, credentials: Record<string, string>) => Failure | undefined;

/**
 * Everything the service knows of one network, exported by its folder's network.ts and listed once in
 * shared/networks/network-list.ts: its facts (what use cases read through the NetworkLimits port, without send
 * code) and loaders of its code by capability. Each loader require()s its module on first call behind the wiring
 * switch of its group (shared/wiring/declaration.ts), so a Lambda bundle that does not wire a capability carries none
 * of its code (esbuild drops the dead branch).
 */
export interface NetworkDescriptor {
  name: PlatformName;
  /** Its name as pages show it (connect page, Compose, OAuth result). */
  displayName: string;
  /** Its badge on the pages: a short monogram in white on `color` (a contrast of at least 4.5:1 with white). */
  icon: { mark: string; color: string };
  /** What the sign-in's account picker calls one of its accounts ("Page", "location"); absent = "account". */
  accountNoun?: string;
  /** Its checks before any send (limits.ts); the adapter's `check` is the same function. */
  check: ContentCheck;
  /** Media types, sizes and alt-text limit known before any download; absent = none checked here. */
  media?: MediaRules;
  /** Delete and edit support; absent = neither. */
  manage?: ManageFlags;
  /** Whether its adapter has `readBack`. */
  readBack: boolean;
  /** How reply_to and quote name its posts; absent where it takes neither. */
  postRef?: PostRefRule;
  /** The per-network post fields it takes (thread, first_comment, reply_to, poll, …); absent = none. */
  options?: readonly PostOption[];
  /** Its adapter, send code included (wired by `publishes: true`). */
  adapter(cfg: Config): NetworkAdapter;
  /** Its credential check alone (wired by `networks: true`). */
  verifier(cfg: Config): NetworkVerifier;
  /** Its OAuth sign-in side (wired by `networks: true`); absent for networks connected with credentials. */
  oauth?(cfg: Config): OAuthProvider;
}

/** A loader whose capability the function's declaration does not wire (only in a Lambda bundle) throws this. */
const notWired = (platform: string, declare: string): never => {
  throw new Error(`${platform}: not wired into this function: its route or worker must declare ${declare}`);
};
/** The send code of `platform` is not in this bundle. */
export const sendCodeNotWired = (platform: string): never => notWired(platform, '`publishes: true`');
/** The credential check or sign-in side of `platform` is not in this bundle. */
export const networkCodeNotWired = (platform: string): never => notWired(platform, '`networks: true`');

/** The relays of NOSTR_DEFAULT_RELAYS (comma-separated). */
export const relaysOf = (cfg: Config): string[] => cfg.NOSTR_DEFAULT_RELAYS.split(',').map((r) => r.trim()).filter(Boolean);
