import * as z from 'zod';

/** Bluesky's configuration keys (merged into the service's configuration schema, shared/config.ts): its PDS host and its video service (app.bsky.video.*); loopback fakes in tests. */
export const CONFIG_KEYS = {
  BLUESKY_API_BASE: z.string().url().default('https://bsky.social'),
  BLUESKY_VIDEO_BASE: z.string().url().default('https://video.bsky.app'),
};
