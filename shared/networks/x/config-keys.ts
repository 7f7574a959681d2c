import * as z from 'zod';

/**
 * X's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: `X_AUTH_BASE` serves the authorize and token endpoints at the real paths, `X_API_BASE`
 * the API. Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  X_CLIENT_ID: z.string().optional(), X_CLIENT_SECRET: z.string().optional(),
  X_AUTH_BASE: z.string().url().optional(), X_API_BASE: z.string().url().optional(),
};
