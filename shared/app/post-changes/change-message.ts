import * as z from 'zod';
import { isPlatformName, type PlatformName } from '../../domain/platforms';
import { formatVersion } from '../../ports/format-version';

/**
 * One network of one delete or edit, on the publish queue: the publish worker takes these apart from publish
 * messages by `change` (shared/app/post-changes/apply-change.ts runs them).
 */
export const PostChangeMessage = z.object({
  v: formatVersion,
  change: z.enum(['delete', 'edit']),
  post_id: z.string().regex(/^pst_[0-9A-Z]{26}$/),
  change_id: z.string().regex(/^chg_[0-9A-Z]{26}$/),
  platform: z.string().refine(isPlatformName, 'unknown network').transform((p) => p as PlatformName),
});
export type PostChangeMessage = z.infer<typeof PostChangeMessage>;
