import * as z from 'zod';
import type { Actor } from '../auth';
import type { PublishContext } from '../../ports/publishing';
import { isPlatformName, type PlatformName } from '../../domain/platforms';
import { formatVersion } from '../../ports/format-version';

/** How a post is published (source, waiting, actor, approval), and the message each network's worker receives. */

export interface PublishOptions {
  source: 'api' | 'schedule';
  schedule_id?: string;
  /** Wait for the workers' results (POST /api/post); false answers right after fan-out. */
  wait: boolean;
  /** Who publishes (API key or AI app): its guardrails apply. Absent: no actor guardrails. */
  actor?: Actor;
  /** Publishing a post that was held and is now approved: its reserved post id (which holds the lock already). */
  approval?: { id: string; post_id: string };
  /** The author asks for a review (the dashboard's "Send for approval"): held whatever the rules say. */
  requestApproval?: boolean;
  /** The account's brands, connections, guardrails and rules when the caller read them already. */
  context?: PublishContext;
}

const platform = z.string().refine(isPlatformName, 'unknown network').transform((p) => p as PlatformName);

/**
 * The connection as the API read it (strongly consistent) just before queueing the first send, so the worker does
 * not read it again: its credentials stay envelope-encrypted (bound to the connection) as in the table. Later
 * messages (deferrals, resume steps) carry none and read the connection then.
 */
const ConnectionSnapshot = z.object({
  id: z.string(), account_id: z.string(), brand_id: z.string(), platform,
  handle: z.string(), label: z.string(), status: z.enum(['active', 'reauth_required']), connected_at: z.string(),
  credentials_enc: z.string(), tokens_enc: z.string().optional(), token_expires_at: z.number().optional(),
});

/** One network of one post, on the publish queue (the API's fan-out, the dispatcher's deferrals, resume steps). */
export const PublishMessage = z.object({
  /** Format version (shared/ports/format-version.ts); a message without it is the previous format. */
  v: formatVersion,
  post_id: z.string().regex(/^pst_[0-9A-Z]{26}$/),
  platform,
  /** Deferral number this message carries (0 for the first send). */
  deferral: z.number().int().min(0).max(10),
  /** Until when someone waits for the answer (ms); a network wait that fits is served inside it. */
  respond_by: z.number().int().optional(),
  /** A 'processing' network's next step (async media): the worker calls adapter.resume for step `step`. */
  resume: z.boolean().optional(),
  step: z.number().int().min(0).optional(),
  /** A snapshot that does not parse (e.g. a connection stored without a field) is dropped: the worker reads it. */
  connection: ConnectionSnapshot.optional().catch(undefined),
});
export type PublishMessage = z.infer<typeof PublishMessage>;
