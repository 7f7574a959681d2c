import * as z from 'zod';
import { CONFIG_KEYS as FACEBOOK_KEYS } from '../facebook/config-keys';

/**
 * Instagram's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: it signs in through Facebook Login (`INSTAGRAM_AUTH_BASE`) and posts through the
 * Graph API (`FACEBOOK_API_BASE`). Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  INSTAGRAM_CLIENT_ID: z.string().optional(), INSTAGRAM_CLIENT_SECRET: z.string().optional(),
  INSTAGRAM_AUTH_BASE: z.string().url().optional(),
  /** It posts through the Graph API: Facebook's API host. */
  FACEBOOK_API_BASE: FACEBOOK_KEYS.FACEBOOK_API_BASE,
};
