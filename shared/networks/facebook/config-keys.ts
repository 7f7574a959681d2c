import * as z from 'zod';

/**
 * Facebook's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: `FACEBOOK_AUTH_BASE` serves the authorize and token endpoints at the real paths, `FACEBOOK_API_BASE`
 * the API. Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  FACEBOOK_CLIENT_ID: z.string().optional(), FACEBOOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_AUTH_BASE: z.string().url().optional(), FACEBOOK_API_BASE: z.string().url().optional(),
};
