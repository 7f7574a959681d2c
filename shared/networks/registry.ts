import type { Config } from '../config';
import type { Registry } from '../ports/networks';
import type { OAuthProviders } from '../ports/oauth';
import { createTelegramAdapter } from './telegram';
import { createBlueskyAdapter } from './bluesky';
import { createMastodonAdapter } from './mastodon';
import { createDiscordAdapter } from './discord';
import { createWordpressAdapter } from './wordpress';
import { createDevtoAdapter } from './devto';
import { createHashnodeAdapter } from './hashnode';
import { createSlackAdapter } from './slack';
import { createNostrAdapter } from './nostr';
import { createTikTokAdapter, createTikTokProvider } from './tiktok';
import { createYouTubeAdapter, createYouTubeProvider } from './youtube';
import { createRedditAdapter, createRedditProvider } from './reddit';
import { createLinkedinAdapter, createLinkedinProvider } from './linkedin';
import { createFacebookAdapter, createFacebookProvider } from './facebook';
import { createInstagramAdapter, createInstagramProvider } from './instagram';
import { createXAdapter, createXProvider } from './x';
import { createThreadsAdapter, createThreadsProvider } from './threads';
import { createPinterestAdapter, createPinterestProvider } from './pinterest';
import { createGoogleBusinessAdapter, createGoogleBusinessProvider } from './google_business';

/** Maps network names to their adapters, with base URLs from the configuration (overridable for tests). */
export function buildRegistry(cfg: Config): Registry {
  const h = oauthHosts(cfg);
  return {
    telegram: createTelegramAdapter({ apiBase: cfg.TELEGRAM_API_BASE }),
    bluesky: createBlueskyAdapter({ apiBase: cfg.BLUESKY_API_BASE, videoBase: cfg.BLUESKY_VIDEO_BASE }),
    mastodon: createMastodonAdapter({ pollIntervalMs: cfg.MASTODON_POLL_MS }),
    discord: createDiscordAdapter(),
    wordpress: createWordpressAdapter(),
    devto: createDevtoAdapter({ apiBase: cfg.DEVTO_API_BASE }),
    hashnode: createHashnodeAdapter({ apiBase: cfg.HASHNODE_API_BASE }),
    slack: createSlackAdapter(),
    nostr: createNostrAdapter({ defaultRelays: cfg.NOSTR_DEFAULT_RELAYS.split(',').map((r) => r.trim()).filter(Boolean), allowPrivate: cfg.ALLOW_PRIVATE_TARGETS }),
    tiktok: createTikTokAdapter(h.tiktok),
    youtube: createYouTubeAdapter(h.youtube),
    reddit: createRedditAdapter(h.reddit),
    linkedin: createLinkedinAdapter(h.linkedin),
    facebook: createFacebookAdapter(h.facebook),
    instagram: createInstagramAdapter(h.instagram),
    x: createXAdapter(h.x),
    threads: createThreadsAdapter(h.threads),
    pinterest: createPinterestAdapter(h.pinterest),
    google_business: createGoogleBusinessAdapter(h.google_business),
  };
}

/** Hosts of the OAuth networks from the configuration; undefined leaves each provider's real default. */
function oauthHosts(cfg: Config) {
  return {
    tiktok: { authBase: cfg.TIKTOK_AUTH_BASE, apiBase: cfg.TIKTOK_API_BASE },
    youtube: { authBase: cfg.YOUTUBE_AUTH_BASE, apiBase: cfg.YOUTUBE_API_BASE, uploadBase: cfg.YOUTUBE_UPLOAD_BASE },
    reddit: { authBase: cfg.REDDIT_AUTH_BASE, apiBase: cfg.REDDIT_API_BASE },
    linkedin: { authBase: cfg.LINKEDIN_AUTH_BASE, apiBase: cfg.LINKEDIN_API_BASE, organizations: cfg.LINKEDIN_ORGANIZATIONS },
    facebook: { authBase: cfg.FACEBOOK_AUTH_BASE, apiBase: cfg.FACEBOOK_API_BASE },
    // Instagram signs in through Facebook Login and posts through the Graph API
    instagram: { authBase: cfg.INSTAGRAM_AUTH_BASE, apiBase: cfg.FACEBOOK_API_BASE },
    x: { authBase: cfg.X_AUTH_BASE, apiBase: cfg.X_API_BASE },
    threads: { authBase: cfg.THREADS_AUTH_BASE, apiBase: cfg.THREADS_API_BASE },
    pinterest: { authBase: cfg.PINTEREST_AUTH_BASE, apiBase: cfg.PINTEREST_API_BASE },
    google_business: { authBase: cfg.GOOGLE_BUSINESS_AUTH_BASE, apiBase: cfg.GOOGLE_BUSINESS_API_BASE },
  };
}

/**
 * The sign-in side of the OAuth networks (shared/ports/oauth.ts), with the hosts from the configuration
 * (`<NAME>_AUTH_BASE`, `<NAME>_API_BASE`; unset = the real hosts).
 */
export function buildOAuthProviders(cfg: Config): OAuthProviders {
  const h = oauthHosts(cfg);
  return {
    tiktok: createTikTokProvider(h.tiktok),
    youtube: createYouTubeProvider(h.youtube),
    reddit: createRedditProvider(h.reddit),
    linkedin: createLinkedinProvider(h.linkedin),
    facebook: createFacebookProvider(h.facebook),
    instagram: createInstagramProvider(h.instagram),
    x: createXProvider(h.x),
    threads: createThreadsProvider(h.threads),
    pinterest: createPinterestProvider(h.pinterest),
    google_business: createGoogleBusinessProvider(h.google_business),
  };
}
