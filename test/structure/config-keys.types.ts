/*
 * Type test, checked by `tsc --noEmit` (the first step of `npm test`), never run: the configuration merged from the
 * networks' config-keys.ts files is typed key by key, and a network's `settings` reads only its own keys, typed, and
 * must give its factories what they take. Each `@ts-expect-error` line must fail to compile; if one compiled, tsc
 * reports the unused directive.
 */
import * as z from 'zod';
import type { Config } from '../../shared/config';
import type { PlatformName } from '../../shared/domain/platforms';
import { defineNetwork } from '../../shared/networks/descriptor';
import type { NetworkAdapter, NetworkVerifier } from '../../shared/ports/networks';
import { TEXT_RULE } from '../../shared/networks/telegram/limits';

declare const cfg: Config;

// every network's keys, as its folder declares them: a number, a boolean, an optional URL, a defaulted string
export const pollMs: number = cfg.MASTODON_POLL_MS;
export const organizations: boolean = cfg.LINKEDIN_ORGANIZATIONS;
export const xApi: string | undefined = cfg.X_API_BASE;
export const telegramApi: string = cfg.TELEGRAM_API_BASE;
// @ts-expect-error MASTODON_POLL_MS is a number
export const pollText: string = cfg.MASTODON_POLL_MS;
// @ts-expect-error X_API_BASE is optional (unset = the real host)
export const xApiSet: string = cfg.X_API_BASE;
// @ts-expect-error no network declares this key
void cfg.NOWHERE_API_BASE;

declare const createAdapter: (opts: { apiBase: string; pollMs: number }) => NetworkAdapter;
declare const createVerifier: (opts: { apiBase: string }) => NetworkVerifier;
const KEYS = { TYPED_API_BASE: z.string().url().default('https://typed.example'), TYPED_POLL_MS: z.coerce.number().default(5) };
const facts = { name: 'typed' as PlatformName, displayName: 'Typed', icon: { mark: 'T', color: '#000000' }, check: () => undefined, text: TEXT_RULE, readBack: false };

// its settings read its own keys, typed, and give both factories what they take
export const typed = defineNetwork({
  ...facts,
  config: KEYS,
  settings: (c) => ({ apiBase: c.TYPED_API_BASE, pollMs: c.TYPED_POLL_MS, allowPrivate: c.ALLOW_PRIVATE_TARGETS }),
  adapter: () => createAdapter,
  verifier: () => createVerifier,
});

export const otherNetworksKey = defineNetwork({
  ...facts,
  config: KEYS,
  // @ts-expect-error another network's key is not among its settings
  settings: (c) => ({ apiBase: c.X_API_BASE, pollMs: c.TYPED_POLL_MS }),
  adapter: () => createAdapter,
  verifier: () => createVerifier,
});

export const wrongSettings = defineNetwork({
  ...facts,
  config: KEYS,
  settings: (c) => ({ apiBase: c.TYPED_API_BASE, pollMs: String(c.TYPED_POLL_MS) }),
  // @ts-expect-error its adapter takes pollMs as a number, the settings give a string
  adapter: () => createAdapter,
  verifier: () => createVerifier,
});
