import { z } from 'zod';
import type { Deps } from '../deps';
import { isPlatformName } from '../../domain/platforms';
import type { PublishMessage } from './create-post';

/** What a scheduler timer carries to the dispatcher (validated: the input crosses a process boundary). */
export const DispatchInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('deferred'),
    post_id: z.string().regex(/^pst_[0-9A-Z]{26}$/),
    platform: z.string().refine(isPlatformName, 'unknown network'),
    deferral: z.number().int().min(1).max(10),
    schedule_id: z.string().optional(),
  }),
]);
export type DispatchInput = z.infer<typeof DispatchInput>;

/** Fires a due timer: a deferred network goes back on the publish queue, where the worker claims it once. */
export async function dispatch(deps: Deps, input: DispatchInput): Promise<void> {
  const body: PublishMessage = { post_id: input.post_id, platform: input.platform as PublishMessage['platform'], deferral: input.deferral };
  await deps.queue.sendAll(deps.settings.publishQueueUrl, [{ id: `${input.post_id}-${input.platform}`, body }]);
}
