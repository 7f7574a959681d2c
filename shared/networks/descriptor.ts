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
 * code) and loaders of its code by capability, each behind the wiring switch of its group
 * (shared/wiring/declaration.ts), so a Lambda bundle that does not wire a capability carries none of its code
 * (esbuild drops the dead branch). The credential check and the sign-in side are loaded with `import()` on their
 * first call: in a bundle split into chunks (the MCP function's) their code and packages are in chunks that a
 * function's start does not read or compile.
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
  /** Its credential check alone (wired by `networks: true`): its module is loaded by the first `verify`. */
  verifier(cfg: ServiceConfig): NetworkVerifier;
  /**
   * Its OAuth sign-in side (wired by `networks: true`); absent for networks connected with credentials. Its module is
   * loaded by the first call of a method; `pkce` and whether it has `refresh` are the definition's facts.
   */
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
 * A factory of a network's send code in a module loaded on first use: the network's network.ts require()s it behind
 * the literal wiring switch of its group, `process.env.SPA_WIRE_NETWORKS` / `SPA_WIRE_PUBLISH === 'off'` (esbuild's
 * `define` turns the unwired branch, require() included, into dead code), and answers undefined there. The send code
 * stays a synchronous require(): only the publish worker carries it, and its adapters' synchronous `check` needs it.
 */
type Loader<S, T> = () => ((settings: S) => T) | undefined;

/** network-code.ts: every network's credential check and sign-in factories, by name. */
type NetworkCode = typeof import('./network-code');

/**
 * Picks a network's factory from network-code.ts, loaded with `import()` by the capability's first call
 * (`(code) => code.createXVerifier`); a network whose folder is elsewhere (a test's) require()s its own module instead.
 */
type Picker<S, T> = (code: NetworkCode) => (settings: S) => T;

/** An OAuth network's sign-in: the facts its provider answers before its module is loaded, and the module's loader. */
interface SignInDefinition<S> {
  /** Whether the network takes a PKCE challenge (its provider's `pkce`). */
  pkce: boolean;
  /** Whether its tokens can be renewed (its provider has `refresh`). */
  renews: boolean;
  /** Its OAuth sign-in provider's factory, from its oauth.ts. */
  provider: Picker<S, OAuthProvider>;
}

/**
 * Every network's credential check and sign-in code (network-code.ts), imported behind the literal wiring switch
 * `process.env.SPA_WIRE_NETWORKS === 'off'` (esbuild's `define` drops the unwired branch, import() included), where
 * it answers undefined. One module for all networks: in a bundle split into chunks, code that both the function's start
 * and the network code use then lands in a few chunks, not in one per network (each chunk is a module the start loads).
 */
const networkCode = (): Promise<NetworkCode> | undefined => process.env.SPA_WIRE_NETWORKS === 'off' ? undefined : import('./network-code');

/** What a network's folder says of it (its network.ts), given to defineNetwork. */
export interface NetworkDefinition<K extends ConfigKeys, S> extends Omit<NetworkDescriptor<K>, 'config' | 'adapter' | 'verifier' | 'oauth'> {
  /** Its configuration keys (its folder's config-keys.ts); absent = none. */
  config?: K;
  /** What its code is created with, from the configuration (its hosts, …); absent = `{}`. */
  settings?: (cfg: NetworkSettings<K>) => S;
  /** Its adapter's factory (index.ts), send code included: undefined unless `publishes: true` wires it. */
  adapter: Loader<S, NetworkAdapter>;
  /** Its credential check's factory, from its verify-credentials.ts. */
  verifier: Picker<S, NetworkVerifier>;
  /** Its OAuth sign-in (oauth.ts), OAuth networks only. */
  oauth?: SignInDefinition<S>;
}

/**
 * What `load` answers, loaded by the first call and kept (a failed load is tried again by the next call). `load`
 * throws where the capability is not wired: then each call fails, and nothing is kept.
 */
function loadedOnFirstCall<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load().catch((err: unknown) => { loaded = undefined; throw err; }));
}

/**
 * A sign-in provider whose module is loaded by the first call of a method; its facts come from the definition, and the
 * loaded provider must say the same (else every call fails, naming both).
 */
function providerLoadedOnFirstCall(name: PlatformName, signIn: Omit<SignInDefinition<never>, 'provider'>, load: () => Promise<OAuthProvider>): OAuthProvider {
  const facts = (pkce: boolean, renews: boolean) => `pkce ${pkce}, renews ${renews}`;
  const provider = loadedOnFirstCall(async () => {
    const loaded = await load();
    const said = facts(loaded.pkce, !!loaded.refresh);
    if (said !== facts(signIn.pkce, signIn.renews)) throw new Error(`${name}: its network.ts says ${facts(signIn.pkce, signIn.renews)}; its provider says ${said}`);
    return loaded;
  });
  return {
    name,
    pkce: signIn.pkce,
    authorizeUrl: async (input) => (await provider()).authorizeUrl(input),
    exchangeCode: async (input, ctx) => (await provider()).exchangeCode(input, ctx),
    accounts: async (tokens, ctx) => (await provider()).accounts(tokens, ctx),
    // the loaded provider has `refresh` where the definition says `renews` (checked above)
    ...(signIn.renews ? { refresh: async (tokens, app, ctx) => (await provider()).refresh!(tokens, app, ctx) } satisfies Pick<OAuthProvider, 'refresh'> : {}),
  };
}

/**
 * A network's descriptor from its definition: each loader creates the network's code with the settings read from the
 * configuration, or throws where the function's declaration does not wire it (only in a Lambda bundle): the send
 * code when the adapter is asked for, the credential check and the sign-in side at their first call.
 */
export function defineNetwork<K extends ConfigKeys = Record<never, z.ZodType>, S = object>(def: NetworkDefinition<K, S>): NetworkDescriptor<K> {
  const { config, settings, adapter, verifier, oauth, ...facts } = def;
  // the configuration parsed with the registry's keys holds this network's (shared/config.ts)
  const settingsOf = (cfg: ServiceConfig): S => (settings ? settings(cfg as NetworkSettings<K>) : ({} as S));
  // the network's factory, picked by its network.ts from network-code.ts, created with the settings
  const imported = async <T>(pick: Picker<S, T>, s: S): Promise<T> => pick(await (networkCode() ?? networkCodeNotWired(def.name)))(s);
  return {
    ...facts,
    config: config ?? ({} as K),
    adapter: (cfg) => (adapter() ?? sendCodeNotWired(def.name))(settingsOf(cfg)),
    verifier: (cfg) => {
      const s = settingsOf(cfg);
      const loaded = loadedOnFirstCall(() => imported(verifier, s));
      return { name: def.name, verify: async (ctx) => (await loaded()).verify(ctx) };
    },
    ...(oauth ? {
      oauth: (cfg: ServiceConfig) => {
        const s = settingsOf(cfg);
        return providerLoadedOnFirstCall(def.name, oauth, () => imported(oauth.provider, s));
      },
    } : {}),
  };
}
