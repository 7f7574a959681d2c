import * as z from 'zod';

/**
 * YouTube's configuration keys (merged into the service's configuration schema, shared/config.ts): the service's OAuth
 * client id and secret (locally from the environment; in AWS from SSM under OAUTH_SSM_PREFIX, the environment as a
 * fallback), and the hosts: `YOUTUBE_AUTH_BASE` serves the authorize and token endpoints at the real paths, `YOUTUBE_API_BASE`
 * the API. Unset hosts mean the real ones (its provider knows its defaults).
 */
export const CONFIG_KEYS = {
  YOUTUBE_CLIENT_ID: z.string().optional(), YOUTUBE_CLIENT_SECRET: z.string().optional(),
  YOUTUBE_AUTH_BASE: z.string().url().optional(), YOUTUBE_API_BASE: z.string().url().optional(),
  /** Its resumable upload host (the API host's /upload paths by default). */
  YOUTUBE_UPLOAD_BASE: z.string().url().optional(),
};
