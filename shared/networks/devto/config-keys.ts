import * as z from 'zod';

/** dev.to's configuration keys (merged into the service's configuration schema, shared/config.ts): its API host (a loopback fake in tests). */
export const CONFIG_KEYS = {
  DEVTO_API_BASE: z.string().url().default('https://dev.to'),
};
