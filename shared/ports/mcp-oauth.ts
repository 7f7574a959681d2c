/**
 * The MCP server's OAuth 2.1 authorization server: registered clients, AI apps (one per account and
 * client, made by the owner's consent), authorization codes and tokens. Codes and tokens are stored by their SHA-256
 * only; every read and conditional write checks expiry itself (TTL deletion is lazy).
 */
export interface OAuthClientRecord {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  /** `registered`: dynamic client registration (RFC 7591); `metadata_document`: client_id is the document's URL. */
  kind: 'registered' | 'metadata_document';
  client_uri?: string;
  created_at: string;
}

/** An AI app: a client the account owner allowed; listed (and revoked) in the dashboard. */
export interface AiApp {
  id: string;
  account_id: string;
  client_id: string;
  client_name: string;
  /** Host of the redirect URI the owner consented to (shown in the dashboard). */
  redirect_host: string;
  created_at: string;
  revoked_at?: string;
}

export interface AuthCodeRecord {
  hash: string;
  client_id: string;
  app_id: string;
  account_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  /** Epoch seconds (also the TTL attribute). */
  expires_at: number;
  used_at?: string;
}

export interface OAuthTokenRecord {
  hash: string;
  kind: 'access' | 'refresh';
  app_id: string;
  account_id: string;
  client_id: string;
  /** The resource (RFC 8707) the token is bound to: this server's MCP URL. */
  resource: string;
  scope: string;
  /** Epoch seconds (also the TTL attribute). */
  expires_at: number;
  created_at: string;
  /** The grant (one code redemption and its refresh chain) the token belongs to; revoked as a whole. */
  grant_id?: string;
  /** Refresh tokens: set once when rotated (a used refresh token never works again). */
  used_at?: string;
  revoked_at?: string;
}

export interface McpOAuthStore {
  putClient(client: OAuthClientRecord): Promise<void>;
  getClient(clientId: string): Promise<OAuthClientRecord | undefined>;
  /** The account's live app for this client; `candidate` is stored when there is none (one per account and client). */
  appFor(candidate: AiApp): Promise<AiApp>;
  getApp(accountId: string, appId: string): Promise<AiApp | undefined>;
  /** The account's apps, newest first (revoked ones included). */
  listApps(accountId: string): Promise<AiApp[]>;
  /** Revokes a live app once: false when unknown or already revoked. Its tokens stop working at once. */
  revokeApp(accountId: string, appId: string, at: string): Promise<boolean>;
  putCode(code: AuthCodeRecord): Promise<void>;
  /** Uses a code once: the record when it was live and unused at `nowSec`, else undefined. */
  redeemCode(hash: string, nowSec: number, at: string): Promise<AuthCodeRecord | undefined>;
  putToken(token: OAuthTokenRecord): Promise<void>;
  getToken(hash: string): Promise<OAuthTokenRecord | undefined>;
  /** Rotation: marks a live, unused, unrevoked refresh token used; the record, else undefined. */
  useRefreshToken(hash: string, nowSec: number, at: string): Promise<OAuthTokenRecord | undefined>;
  revokeToken(hash: string, at: string): Promise<void>;
  /** A code as stored (used or not), to tell a second redemption from an unknown code. */
  getCode(hash: string): Promise<AuthCodeRecord | undefined>;
  /** Revokes a grant: every token of it stops working at once and none is issued from it again. */
  revokeGrant(grantId: string, at: string, keepUntilSec: number): Promise<void>;
  isGrantRevoked(grantId: string): Promise<boolean>;
}
