import * as z from 'zod';

/**
 * Threads's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: `THREADS_AUTH_BASE` serves the authorize and token endpoints at the real paths, `THREADS_API_BASE`
 * the API. Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  THREADS_CLIENT_ID: z.string().optional(), THREADS_CLIENT_SECRET: z.string().optional(),
  THREADS_AUTH_BASE: z.string().url().optional(), THREADS_API_BASE: z.string().url().optional(),
};
