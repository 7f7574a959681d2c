/*
 * Each network's credential check (its folder's verify-credentials.ts) and OAuth sign-in side (its oauth.ts), found by
 * file name, so that a network's folder is all it takes. esbuild bundles every file a pattern matches into this module
 * (a glob require); only descriptor.ts reaches it, with import() behind the wiring switch of `networks`. In a bundle
 * split into chunks (the MCP function's) that code and its packages (ws, nostr-tools, @noble/*) are one chunk, read
 * and compiled by the first credential check or sign-in call, never by the function's start.
 */

/** The module of `network`'s credential check (shared/networks/<network>/verify-credentials.ts). */
export const credentialCheckModule = (network: string): unknown => require(`./${network}/verify-credentials.ts`);

/** The module of `network`'s OAuth sign-in side (shared/networks/<network>/oauth.ts). */
export const signInModule = (network: string): unknown => require(`./${network}/oauth.ts`);
