import type { PlatformName } from '../domain/platforms';

/**
 * Which networks can be read back (their adapter has `readBack`: the service can look for a post a dead worker may
 * have sent), apart from the send code so GET /api/platforms answers it without loading any adapter. A test holds
 * it equal to `typeof adapter.readBack === 'function'` for every network. Where it is false, a post whose worker
 * died after sending stays `unknown`: Telegram's Bot API cannot list a chat's history, Discord and Slack webhooks
 * can only post, and TikTok's posting scopes cannot list the account's videos.
 */
export const READ_BACK: Record<PlatformName, boolean> = {
  telegram: false,
  bluesky: true,
  mastodon: true,
  discord: false,
  wordpress: true,
  devto: true,
  hashnode: true,
  slack: false,
  nostr: true,
  tiktok: false,
  youtube: true,
  reddit: true,
  linkedin: true,
  facebook: true,
  instagram: true,
  x: true,
  threads: true,
  pinterest: true,
  google_business: true,
};
