import * as z from 'zod';

/** Nostr's configuration keys (merged into the service's configuration schema, shared/config.ts). */
export const CONFIG_KEYS = {
  /** Comma-separated default Nostr relays, used when a connection names none. */
  NOSTR_DEFAULT_RELAYS: z.string().default('wss://relay.damus.io,wss://nos.lol,wss://relay.nostr.band'),
};
