import type { Config } from '../config';
import type { PlatformName } from '../domain/platforms';
import type { NetworkAdapter } from './types';
import { createTelegramAdapter } from './telegram';
import { createBlueskyAdapter } from './bluesky';
import { createMastodonAdapter } from './mastodon';
import { createDiscordAdapter } from './discord';
import { createWordpressAdapter } from './wordpress';
import { createDevtoAdapter } from './devto';
import { createHashnodeAdapter } from './hashnode';
import { createSlackAdapter } from './slack';
import { createNostrAdapter } from './nostr';

export type Registry = Partial<Record<PlatformName, NetworkAdapter>>;

/** Maps network names to their adapters, with base URLs from the configuration (overridable for tests). */
export function buildRegistry(cfg: Config): Registry {
  return {
    telegram: createTelegramAdapter({ apiBase: cfg.TELEGRAM_API_BASE }),
    bluesky: createBlueskyAdapter({ apiBase: cfg.BLUESKY_API_BASE }),
    mastodon: createMastodonAdapter({ pollIntervalMs: cfg.MASTODON_POLL_MS }),
    discord: createDiscordAdapter(),
    wordpress: createWordpressAdapter(),
    devto: createDevtoAdapter({ apiBase: cfg.DEVTO_API_BASE }),
    hashnode: createHashnodeAdapter({ apiBase: cfg.HASHNODE_API_BASE }),
    slack: createSlackAdapter(),
    nostr: createNostrAdapter({ defaultRelays: cfg.NOSTR_DEFAULT_RELAYS.split(',').map((r) => r.trim()).filter(Boolean) }),
  };
}
