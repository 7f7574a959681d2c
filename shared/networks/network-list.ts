/*
 * THE registry of networks: one line per network folder, exporting its descriptor (shared/networks/<name>/network.ts).
 * Every table of networks is derived from it (all-networks.ts).
 */
export { telegram } from './telegram/network';
export { bluesky } from './bluesky/network';
export { mastodon } from './mastodon/network';
export { discord } from './discord/network';
export { wordpress } from './wordpress/network';
export { devto } from './devto/network';
export { hashnode } from './hashnode/network';
export { slack } from './slack/network';
export { nostr } from './nostr/network';
export { tiktok } from './tiktok/network';
export { youtube } from './youtube/network';
export { reddit } from './reddit/network';
export { linkedin } from './linkedin/network';
export { facebook } from './facebook/network';
export { instagram } from './instagram/network';
export { x } from './x/network';
export { threads } from './threads/network';
export { pinterest } from './pinterest/network';
export { google_business } from './google_business/network';
