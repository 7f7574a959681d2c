import type * as z from 'zod';
import type { PlatformName } from '../domain/platforms';
import type { TextRule } from '../domain/text-length';
import type { Failure, NetworkAdapter, NetworkVerifier, PublishContent } from '../ports/networks';
import type { ManageFlags, PostOption, PostRefRule } from '../ports/network-limits';
import type { OAuthProvider } from '../ports/oauth';
import type { MediaRules } from './media-rules';

/** A network's checks that need no network call (length limits, media fit): undefined when the content fits. */
export type ContentCheck = (content: PublishContent, credentials: Record<string, string>) => Failure | undefined;

/**
 * A network's configuration keys: the zod fields of the environment variables it reads (`<NAME>_API_BASE`,
 * `_AUTH_BASE`, `_CLIENT_ID`, `_CLIENT_SECRET`, and its own such as `MASTODON_POLL_MS`), declared in its folder's
 * config.ts and merged into the service's configuration schema (shared/config.ts) from the registry.
 */
export type ConfigKeys = Record<string, z.ZodType>;

/** Service-wide settings a network's code may read besides its own keys (shared/config.ts). */
export interface ServiceSettings {
  /** Private and loopback addresses are allowed targets (tests and the sandbox). */
  ALLOW_PRIVATE_TARGETS: boolean;
}

/** The service's parsed configuration as the tables of networks take it (shared/config.ts's `Config` is one). */
export type ServiceConfig = Readonly<Record<string, unknown>> & ServiceSettings;

/** What a network's `settings` reads: its own keys, parsed (typed as its config-keys.ts declares them), and the service-wide settings. */
export type NetworkSettings<K extends ConfigKeys> = z.output<z.ZodObject<K>> & ServiceSettings;

/**
 * Everything the service knows of one network, exported by its folder's network.ts and listed once in
 * shared/networks/network-list.ts: its facts (what use cases read through the NetworkLimits port, without send
 * code) and loaders of its code by capability. Each loader require()s its module on first call behind the wiring
 * switch of its group (shared/wiring/declaration.ts), so a Lambda bundle that does not wire a capability carries none
 * of its code (esbuild drops the dead branch).
 */
export interface NetworkDescriptor<K extends ConfigKeys = ConfigKeys> {
  name: PlatformName;
  /** Its name as pages show it (connect page, Compose, OAuth result). */
  displayName: string;
  /** Its badge on the pages: a short monogram in white on `color` (a contrast of at least 4.5:1 with white). */
  icon: { mark: string; color: string };
  /** What the sign-in's account picker calls one of its accounts ("Page", "location"); absent = "account". */
  accountNoun?: string;
  /** Its checks before any send (limits.ts); the adapter's `check` is the same function. */
  check: ContentCheck;
  /** Its text rule (`TEXT_RULE` of limits.ts): THE length validator's unit and limits for it (shared/domain/text-length.ts). */
  text: TextRule;
  /** Its configuration keys (its folder's config-keys.ts); `{}` where it reads none. */
  config: K;
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
  /** Its adapter, send code included (wired by `publishes: true`), from the configuration (which holds its keys). */
  adapter(cfg: ServiceConfig): NetworkAdapter;
  /** Its credential check alone (wired by `networks: true`). */
  verifier(cfg: ServiceConfig): NetworkVerifier;
  /** Its OAuth sign-in side (wired by `networks: true`); absent for networks connected with credentials. */
  oauth?(cfg: ServiceConfig): OAuthProvider;
}

/** A loader whose capability the function's declaration does not wire (only in a Lambda bundle) throws this. */
const notWired = (platform: string, declare: string): never => {
  throw new Error(`${platform}: not wired into this function: its route or worker must declare ${declare}`);
};
/** The send code of `platform` is not in this bundle. */
const sendCodeNotWired = (platform: string): never => notWired(platform, '`publishes: true`');
/** The credential check or sign-in side of `platform` is not in this bundle. */
const networkCodeNotWired = (platform: string): never => notWired(platform, '`networks: true`');

/**
 * A factory of a network's code in a module that is loaded on first use: the network's network.ts require()s it
 * behind the literal wiring switch of its group, `process.env.SPA_WIRE_PUBLISH` / `SPA_WIRE_NETWORKS === 'off'`
 * (esbuild's `define` turns the unwired branch, require() included, into dead code), and answers undefined there.
 */
type Loader<S, T> = () => ((settings: S) => T) | undefined;

/** What a network's folder says of it (its network.ts), given to defineNetwork. */
export interface NetworkDefinition<K extends ConfigKeys, S> extends Omit<NetworkDescriptor<K>, 'config' | 'adapter' | 'verifier' | 'oauth'> {
  /** Its configuration keys (its folder's config-keys.ts); absent = none. */
  config?: K;
  /** What its code is created with, from the configuration (its hosts, …); absent = `{}`. */
  settings?: (cfg: NetworkSettings<K>) => S;
  /** Its adapter's factory (index.ts), send code included: undefined unless `publishes: true` wires it. */
  adapter: Loader<S, NetworkAdapter>;
  /** Its credential check's factory (verify-credentials.ts): undefined unless `networks: true` wires it. */
  verifier: Loader<S, NetworkVerifier>;
  /** Its OAuth sign-in provider's factory (oauth.ts), OAuth networks only: undefined unless `networks: true` wires it. */
  oauth?: Loader<S, OAuthProvider>;
}

/**
 * A network's descriptor from its definition: each loader creates the network's code with the settings read from the
 * configuration, or throws where the function's declaration does not wire it (only in a Lambda bundle).
 */
export function defineNetwork<K extends ConfigKeys = Record<never, z.ZodType>, S = object>(def: NetworkDefinition<K, S>): NetworkDescriptor<K> {
  const { config, settings, adapter, verifier, oauth, ...facts } = def;
  // the configuration parsed with the registry's keys holds this network's (shared/config.ts)
  const settingsOf = (cfg: ServiceConfig): S => (settings ? settings(cfg as NetworkSettings<K>) : ({} as S));
  return {
    ...facts,
    config: config ?? ({} as K),
    adapter: (cfg) => (adapter() ?? sendCodeNotWired(def.name))(settingsOf(cfg)),
    verifier: (cfg) => (verifier() ?? networkCodeNotWired(def.name))(settingsOf(cfg)),
    ...(oauth ? { oauth: (cfg: ServiceConfig) => (oauth() ?? networkCodeNotWired(def.name))(settingsOf(cfg)) } : {}),
  };
}

