import type { Config } from '../config';
import type { NetworkAdapter, NetworkVerifier, Registry } from '../ports/networks';
import type { PlatformName } from '../domain/platforms';
import { oauthHosts } from './oauth-providers';
import { createTelegramVerifier } from './telegram/verify';
import { createBlueskyVerifier } from './bluesky/verify';
import { createMastodonVerifier } from './mastodon/verify';
import { createDiscordVerifier } from './discord/verify';
import { createWordpressVerifier } from './wordpress/verify';
import { createDevtoVerifier } from './devto/verify';
import { createHashnodeVerifier } from './hashnode/verify';
import { createSlackVerifier } from './slack/verify';
import { createNostrVerifier } from './nostr/verify';
import { createTikTokVerifier } from './tiktok/verify';
import { createYouTubeVerifier } from './youtube/verify';
import { createRedditVerifier } from './reddit/verify';
import { createLinkedinVerifier } from './linkedin/verify';
import { createFacebookVerifier } from './facebook/verify';
import { createInstagramVerifier } from './instagram/verify';
import { createXVerifier } from './x/verify';
import { createThreadsVerifier } from './threads/verify';
import { createPinterestVerifier } from './pinterest/verify';
import { createGoogleBusinessVerifier } from './google_business/verify';

/**
 * Every network's credential check (its verify.ts), with the hosts from the configuration as buildRegistry gives
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
    super(`${platform}.${call}: the network send code is not wired into this function; only the publish worker declares \`publishes: true\` (infra/workers.ts)`);
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
