import * as z from 'zod';

/** A flag: 1 or true is on; unset, 0 or false is off. */
const bool = z.enum(['0', '1', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true');

/**
 * LinkedIn's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: `LINKEDIN_AUTH_BASE` serves the authorize and token endpoints at the real paths, `LINKEDIN_API_BASE`
 * the API. Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  LINKEDIN_CLIENT_ID: z.string().optional(), LINKEDIN_CLIENT_SECRET: z.string().optional(),
  LINKEDIN_AUTH_BASE: z.string().url().optional(), LINKEDIN_API_BASE: z.string().url().optional(),
  /** Organisation pages as targets (needs LinkedIn's Community Management API product for the app). */
  LINKEDIN_ORGANIZATIONS: bool,
  /** Member post analytics: ask for r_member_postAnalytics at sign-in (LinkedIn grants it to approved apps only). */
  LINKEDIN_POST_ANALYTICS: bool,
};
