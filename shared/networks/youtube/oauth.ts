import type { OAuthAccount, OAuthProvider } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { request } from '../http';
import { field, str } from '../oauth-tokens';
import { googleSignIn } from '../google-sign-in';
import { youtubeFailure } from './rules';
import { trimBase } from '../../domain/values';


export const YOUTUBE_API_BASE = 'https://www.googleapis.com';
export const YOUTUBE_UPLOAD_BASE = 'https://www.googleapis.com';
export const YOUTUBE_SCOPES = ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly', 'https://www.googleapis.com/auth/youtube.force-ssl'] as const;

export interface YouTubeOptions {
  /** Origin of the Data API (GET /youtube/v3/channels). */
  apiBase?: string;
  /** Origin of the upload API (POST /upload/youtube/v3/videos). */
  uploadBase?: string;
  /** Origin of Google's authorize page (/o/oauth2/v2/auth). */
  authBase?: string;
  /**
   * Origin of Google's token endpoint (/token). Default: authBase when authBase is given (one fake origin serves
   * both, as YOUTUBE_AUTH_BASE promises), else https://oauth2.googleapis.com.
   */
  tokenBase?: string;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

export interface Channel { id: string; title: string; handle: string }

/** GET /youtube/v3/channels?part=snippet&mine=true: the channels these tokens can upload to. */
export async function myChannels(ctx: NetworkContext, api: string, token: string): Promise<Channel[] | Failure> {
  const res = await request(ctx, `${api}/youtube/v3/channels?part=snippet&mine=true`, { headers: bearer(token) });
  if (res.status !== 200) return youtubeFailure(res, 'channel lookup', ctx.now());
  const items = field(res.json, 'items');
  const channels: Channel[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const id = str(field(item, 'id'));
    if (!id) continue;
    const snippet = field(item, 'snippet');
    const title = str(field(snippet, 'title')) ?? id;
    channels.push({ id, title, handle: str(field(snippet, 'customUrl')) ?? title });
  }
  if (channels.length === 0) return { ok: false, kind: 'rejected', code: 'rejected', error: 'youtube: this Google account has no YouTube channel; create one at youtube.com, then connect again' };
  return channels;
}

/**
 * Google OAuth for YouTube: authorize at `{authBase}/o/oauth2/v2/auth` with access_type=offline and prompt=consent
 * (so every sign-in returns a refresh token), the upload + readonly scopes space-separated, PKCE S256 when a
 * challenge is given. Token: `POST {tokenBase}/token` (form, client_id + client_secret in the body). Refresh tokens
 * do not rotate: a refresh answer without one keeps the old. invalid_grant (revoked, unused for 6 months, a
 * "Testing" consent screen's 7 days) → reauth.
 * accounts(): one account per channel: {id: channel id, handle: @handle or title, credentials {channel_id, channel_title}}.
 */
export function createYouTubeProvider(opts: YouTubeOptions = {}): OAuthProvider {
  const api = trimBase(opts.apiBase ?? YOUTUBE_API_BASE);
  return googleSignIn({
    network: 'youtube', envPrefix: 'YOUTUBE', scopes: YOUTUBE_SCOPES, authBase: opts.authBase, tokenBase: opts.tokenBase,
    noRefreshToken: 'youtube tokens have no refresh token; sign in to youtube again',
    async accounts(tokens, ctx) {
      const channels = await myChannels(ctx, api, tokens.access_token);
      if (!Array.isArray(channels)) return channels;
      return channels.map((c): OAuthAccount => ({ id: c.id, handle: c.handle, credentials: { channel_id: c.id, channel_title: c.title } }));
    },
  });
}
