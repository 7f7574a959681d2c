import type { Deps } from '../deps';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';

/** Spec §8.3 rule 3: when every network of a post failed, its duplicate lock is released at once. */
export async function releaseLockIfAllFailed(deps: Pick<Deps, 'locks'>, post: PostRecord, networks: NetworkRecord[]): Promise<void> {
  if (!post.lock) return;
  const allFinal = networks.every((n) => n.state === 'done');
  const noneOk = networks.every((n) => !n.result?.ok);
  if (allFinal && noneOk) await deps.locks.release(post.lock, post.id);
}
