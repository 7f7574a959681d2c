/*
 * Every network's code loaded on first use: its credential check (its folder's verify-credentials.ts) and OAuth sign-in
 * side (oauth.ts), the factories each network.ts picks (`verifier: (code) => code.create…Verifier`). Only descriptor.ts
 * reaches this module, with import() behind the wiring switch of `networks`: in a bundle split into chunks (the MCP
 * function's) all that code and its packages (ws, nostr-tools, @noble/*) are one chunk, read and compiled by the first
 * credential check or sign-in call, never by the function's start. Re-exported by name, so that esbuild keeps only what
 * the factories use; a new network's factories are added here (its network.ts does not compile until they are).
 * Why one list and not a module per network or files found by name: docs/decisions.md, "Network code loaded on first use".
 */
export { createBlueskyVerifier } from './bluesky/verify-credentials';
export { createDevtoVerifier } from './devto/verify-credentials';
export { createDiscordVerifier } from './discord/verify-credentials';
export { createFacebookVerifier } from './facebook/verify-credentials';
export { createFacebookProvider } from './facebook/oauth';
export { createGoogleBusinessVerifier } from './google_business/verify-credentials';
export { createGoogleBusinessProvider } from './google_business/oauth';
export { createHashnodeVerifier } from './hashnode/verify-credentials';
export { createInstagramVerifier } from './instagram/verify-credentials';
export { createInstagramProvider } from './instagram/oauth';
export { createLinkedinVerifier } from './linkedin/verify-credentials';
export { createLinkedinProvider } from './linkedin/oauth';
export { createMastodonVerifier } from './mastodon/verify-credentials';
export { createNostrVerifier } from './nostr/verify-credentials';
export { createPinterestVerifier } from './pinterest/verify-credentials';
export { createPinterestProvider } from './pinterest/oauth';
export { createRedditVerifier } from './reddit/verify-credentials';
export { createRedditProvider } from './reddit/oauth';
export { createSlackVerifier } from './slack/verify-credentials';
export { createTelegramVerifier } from './telegram/verify-credentials';
export { createThreadsVerifier } from './threads/verify-credentials';
export { createThreadsProvider } from './threads/oauth';
export { createTikTokVerifier } from './tiktok/verify-credentials';
export { createTikTokProvider } from './tiktok/oauth';
export { createWordpressVerifier } from './wordpress/verify-credentials';
export { createXVerifier } from './x/verify-credentials';
export { createXProvider } from './x/oauth';
export { createYouTubeVerifier } from './youtube/verify-credentials';
export { createYouTubeProvider } from './youtube/oauth';
