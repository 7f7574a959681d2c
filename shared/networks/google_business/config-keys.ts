import * as z from 'zod';

/**
 * Google Business Profile's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: `GOOGLE_BUSINESS_AUTH_BASE` serves the authorize and token endpoints at the real paths, `GOOGLE_BUSINESS_API_BASE`
 * the API (one base serves its three APIs' paths): a Google OAuth client with the Business Profile APIs enabled. Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  GOOGLE_BUSINESS_CLIENT_ID: z.string().optional(), GOOGLE_BUSINESS_CLIENT_SECRET: z.string().optional(),
  GOOGLE_BUSINESS_AUTH_BASE: z.string().url().optional(), GOOGLE_BUSINESS_API_BASE: z.string().url().optional(),
};
