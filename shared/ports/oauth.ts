import type { PlatformName } from '../domain/platforms';
import type { Failure, NetworkContext } from './networks';

/**
 * The contract of an OAuth network's sign-in (the `oauth` networks of shared/domain/platforms.ts). Posting
 * stays on NetworkAdapter (ports/networks.ts): its ctx.credentials then hold `access_token` plus the account fields the
 * provider returned (page id, page token, IG user id, person URN, …). Token refresh is the service's job, done
 * before publish (and once after a reauth failure) with `refresh`; providers never store anything.
 */

/** Tokens as the service stores them (encrypted). `expires_at` is absolute (ms since epoch). */
export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  expires_at?: number;
  refresh_expires_at?: number;
  scope?: string;
}

/** The service's app registration at the network (client id/secret from configuration). */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** The service's callback URL, registered at the network. */
  redirectUri: string;
}

/** An account a sign-in can post as: the user's own profile, or each page / business account they manage. */
export interface OAuthAccount {
  /** The network's id for it (page id, IG user id, channel id, open_id, person URN, user id). */
  id: string;
  /** Human handle for listings and event labels (@name, page name, channel title). */
  handle: string;
  /** Fields stored with the tokens and passed to publish as ctx.credentials (strings only). */
  credentials: Record<string, string>;
}

/**
 * One network's sign-in. Its methods are asynchronous: the service loads a network's sign-in code on first use
 * (shared/networks/descriptor.ts), so only `name`, `pkce` and whether `refresh` exists are known before.
 */
export interface OAuthProvider {
  readonly name: PlatformName;
  /** Whether the network takes a PKCE challenge (S256); X requires it. */
  readonly pkce: boolean;
  /** The network's authorize URL for this state (and PKCE challenge when `pkce`), with the scopes it asks for. */
  authorizeUrl(input: { app: OAuthApp; state: string; codeChallenge?: string }): Promise<string>;
  /** Exchanges the callback's code for tokens. */
  exchangeCode(input: { app: OAuthApp; code: string; codeVerifier?: string }, ctx: NetworkContext): Promise<TokenSet | Failure>;
  /** Renews tokens; a Failure of kind 'reauth' means the grant is gone. Absent: the tokens cannot be renewed. */
  refresh?(tokens: TokenSet, app: OAuthApp, ctx: NetworkContext): Promise<TokenSet | Failure>;
  /** The accounts these tokens can post as; several (pages) → the user picks one on the result page. */
  accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure>;
}

/** The sign-in side of the OAuth networks, by network (shared/networks/registry.ts builds it). */
export type OAuthProviders = Partial<Record<PlatformName, OAuthProvider>>;

/** The service's client registration at one OAuth network (client id and secret, from configuration). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

/** Where client registrations come from: the environment locally, SSM Parameter Store in AWS. */
export interface OAuthClients {
  /** The registration of that network; undefined when this deployment has none (the network is "not configured"). */
  get(platform: PlatformName): Promise<OAuthClient | undefined>;
}

/** The OAuth side of the networks: each network's sign-in provider, and the service's registrations. */
export interface OAuthNetworks {
  providers: OAuthProviders;
  clients: OAuthClients;
}
