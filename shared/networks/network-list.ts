import { telegram } from './telegram/network';
import { bluesky } from './bluesky/network';
import { mastodon } from './mastodon/network';
import { discord } from './discord/network';
import { wordpress } from './wordpress/network';
import { devto } from './devto/network';
import { hashnode } from './hashnode/network';
import { slack } from './slack/network';
import { nostr } from './nostr/network';
import { tiktok } from './tiktok/network';
import { youtube } from './youtube/network';
import { reddit } from './reddit/network';
import { linkedin } from './linkedin/network';
import { facebook } from './facebook/network';
import { instagram } from './instagram/network';
import { x } from './x/network';
import { threads } from './threads/network';
import { pinterest } from './pinterest/network';
import { google_business } from './google_business/network';

/**
 * THE registry of networks: each folder's descriptor (shared/networks/<name>/network.ts), imported and listed once.
 * Every table of networks comes from it: the adapters (registry.ts), the credential checks (verifiers.ts), the OAuth
 * sign-in providers (oauth-providers.ts), what use cases read through the NetworkLimits port (descriptor-limits.ts:
 * text rules, content checks, media rules…) and the configuration schema (shared/config.ts merges each network's
 * keys, typed: hence `as const`). A test holds its names equal to the contract's closed list (shared/domain/platforms.ts).
 */
export const NETWORKS = [
  telegram, bluesky, mastodon, discord, wordpress, devto, hashnode, slack, nostr, tiktok,
  youtube, reddit, linkedin, facebook, instagram, x, threads, pinterest, google_business,
] as const;
