import * as z from 'zod';

/** Telegram's configuration keys (merged into the service's configuration schema, shared/config.ts): its Bot API host (a loopback fake in tests). */
export const CONFIG_KEYS = {
  TELEGRAM_API_BASE: z.string().url().default('https://api.telegram.org'),
};
