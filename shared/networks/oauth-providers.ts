import type { Config } from '../config';
import type { OAuthProviders } from '../ports/oauth';
import { createTikTokProvider } from './tiktok/oauth';
import { createYouTubeProvider } from './youtube/oauth';
import { createRedditProvider } from './reddit/oauth';
import { createLinkedinProvider } from './linkedin/oauth';
import { createFacebookProvider } from './facebook/oauth';
import { createInstagramProvider } from './instagram/oauth';
import { createXProvider } from './x/oauth';
import { createThreadsProvider } from './threads/oauth';
import { createPinterestProvider } from './pinterest/oauth';
import { createGoogleBusinessProvider } from './google_business/oauth';

/** Hosts of the OAuth networks from the configuration; undefined leaves each provider's real default. */
export function oauthHosts(cfg: Config) {
  return {
    tiktok: { authBase: cfg.TIKTOK_AUTH_BASE, apiBase: cfg.TIKTOK_API_BASE },
    youtube: { authBase: cfg.YOUTUBE_AUTH_BASE, apiBase: cfg.YOUTUBE_API_BASE, uploadBase: cfg.YOUTUBE_UPLOAD_BASE },
    reddit: { authBase: cfg.REDDIT_AUTH_BASE, apiBase: cfg.REDDIT_API_BASE },
    linkedin: { authBase: cfg.LINKEDIN_AUTH_BASE, apiBase: cfg.LINKEDIN_API_BASE, organizations: cfg.LINKEDIN_ORGANIZATIONS, postAnalytics: cfg.LINKEDIN_POST_ANALYTICS },
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
 * (`<NAME>_AUTH_BASE`, `<NAME>_API_BASE`; unset = the real hosts). Each comes from its network's oauth.ts, which
 * holds no send code.
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
