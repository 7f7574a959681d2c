import * as z from 'zod';

/** Mastodon's configuration keys (merged into the service's configuration schema, shared/config.ts). */
export const CONFIG_KEYS = {
  /** Poll interval of Mastodon media processing (ms). */
  MASTODON_POLL_MS: z.coerce.number().int().positive().default(1000),
};
