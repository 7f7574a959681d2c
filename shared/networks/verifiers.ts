import type { Config } from '../config';
import type { NetworkAdapter, NetworkVerifier, Registry } from '../ports/networks';
import type { PlatformName } from '../domain/platforms';
import { oauthHosts } from './oauth-providers';
import { createTelegramVerifier } from './telegram/verify-credentials';
import { createBlueskyVerifier } from './bluesky/verify-credentials';
import { createMastodonVerifier } from './mastodon/verify-credentials';
import { createDiscordVerifier } from './discord/verify-credentials';
import { createWordpressVerifier } from './wordpress/verify-credentials';
import { createDevtoVerifier } from './devto/verify-credentials';
import { createHashnodeVerifier } from './hashnode/verify-credentials';
import { createSlackVerifier } from './slack/verify-credentials';
import { createNostrVerifier } from './nostr/verify-credentials';
import { createTikTokVerifier } from './tiktok/verify-credentials';
import { createYouTubeVerifier } from './youtube/verify-credentials';
import { createRedditVerifier } from './reddit/verify-credentials';
import { createLinkedinVerifier } from './linkedin/verify-credentials';
import { createFacebookVerifier } from './facebook/verify-credentials';
import { createInstagramVerifier } from './instagram/verify-credentials';
import { createXVerifier } from './x/verify-credentials';
import { createThreadsVerifier } from './threads/verify-credentials';
import { createPinterestVerifier } from './pinterest/verify-credentials';
import { createGoogleBusinessVerifier } from './google_business/verify-credentials';

/**
 * Every network's credential check (its verify-credentials.ts), with the hosts from the configuration as buildRegistry gives
 * them: what connecting and health checks need, with no send code.
 */
export function buildVerifiers(cfg: Config): Record<PlatformName, NetworkVerifier> {
  const h = oauthHosts(cfg);
  return {
    telegram: createTelegramVerifier({ apiBase: cfg.TELEGRAM_API_BASE }),
    bluesky: createBlueskyVerifier({ apiBase: cfg.BLUESKY_API_BASE }),
    mastodon: createMastodonVerifier(),
    discord: createDiscordVerifier(),
    wordpress: createWordpressVerifier(),
    devto: createDevtoVerifier({ apiBase: cfg.DEVTO_API_BASE }),
    hashnode: createHashnodeVerifier({ apiBase: cfg.HASHNODE_API_BASE }),
    slack: createSlackVerifier(),
    nostr: createNostrVerifier({ defaultRelays: cfg.NOSTR_DEFAULT_RELAYS.split(',').map((r) => r.trim()).filter(Boolean), allowPrivate: cfg.ALLOW_PRIVATE_TARGETS }),
    tiktok: createTikTokVerifier(h.tiktok),
    youtube: createYouTubeVerifier(h.youtube),
    reddit: createRedditVerifier(h.reddit),
    linkedin: createLinkedinVerifier(h.linkedin),
    facebook: createFacebookVerifier(h.facebook),
    instagram: createInstagramVerifier(h.instagram),
    x: createXVerifier(h.x),
    threads: createThreadsVerifier(h.threads),
    pinterest: createPinterestVerifier(h.pinterest),
    google_business: createGoogleBusinessVerifier(h.google_business),
  };
}

/** Thrown when a function without the send code (no `publishes` declared) is asked to send, read back, delete or edit. */
export class SendCodeNotWiredError extends Error {
  constructor(platform: string, call: string) {
    super(`${platform}.${call}: the network send code is not wired into this function; only the publish worker declares \`publishes: true\` (functions/workers.ts)`);
    this.name = 'SendCodeNotWiredError';
  }
}

/**
 * The registry of a function that verifies credentials but never sends (connect, health checks, sign-in, MCP): each
 * network's verify, and send members that throw SendCodeNotWiredError. Such a bundle holds no send code.
 */
export function buildVerifyOnlyRegistry(cfg: Config): Registry {
  const out: Registry = {};
  for (const [name, v] of Object.entries(buildVerifiers(cfg)) as Array<[PlatformName, NetworkVerifier]>) {
    const refuse = (call: string) => () => { throw new SendCodeNotWiredError(name, call); };
    out[name] = { name, verify: (ctx) => v.verify(ctx), check: refuse('check'), publish: refuse('publish') } satisfies NetworkAdapter;
  }
  return out;
}
