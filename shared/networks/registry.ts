import type { Config } from '../config';
import type { Registry } from '../ports/networks';
import { oauthHosts } from './oauth-providers';
import { createTelegramAdapter } from './telegram';
import { createBlueskyAdapter } from './bluesky';
import { createMastodonAdapter } from './mastodon';
import { createDiscordAdapter } from './discord';
import { createWordpressAdapter } from './wordpress';
import { createDevtoAdapter } from './devto';
import { createHashnodeAdapter } from './hashnode';
import { createSlackAdapter } from './slack';
import { createNostrAdapter } from './nostr';
import { createTikTokAdapter } from './tiktok';
import { createYouTubeAdapter } from './youtube';
import { createRedditAdapter } from './reddit';
import { createLinkedinAdapter } from './linkedin';
import { createFacebookAdapter } from './facebook';
import { createInstagramAdapter } from './instagram';
import { createXAdapter } from './x';
import { createThreadsAdapter } from './threads';
import { createPinterestAdapter } from './pinterest';
import { createGoogleBusinessAdapter } from './google_business';

/**
 * Maps network names to their adapters (send code included: only the publish worker carries it in AWS), with base
 * URLs from the configuration (overridable for tests). The sign-in side is oauth-providers.ts, the credential checks
 * alone verifiers.ts.
 */
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
