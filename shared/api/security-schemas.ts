import * as z from 'zod';

/** Request and response schemas of the security settings of an account. */

/** At most this many registered redirect origins per account. */
export const MAX_REDIRECT_ORIGINS = 20;

export const PatchMeBody = z.strictObject({
  /** https origins (scheme, host, optional port) that redirect_after of POST /api/oauth/{platform}/url may lead to. */
  redirect_origins: z.array(z.string().max(300)).max(MAX_REDIRECT_ORIGINS),
});
export const PatchMeResponse = z.object({ redirect_origins: z.array(z.string()) });
