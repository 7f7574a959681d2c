import type { Deps } from '../deps';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import { usageKeys } from '../../domain/usage';
import { releaseXCredits } from './x-credits';

/**
 * Reserves up to `count` of the month's posts with one counter update; when they do not all fit, as many as are
 * left (the first networks in request order keep their places). Answers how many were reserved.
 */
export async function reservePosts(deps: Pick<Deps, 'counters'>, key: string, count: number, limit: number, expiresAtSec: number): Promise<number> {
  let want = count;
  while (want > 0) {
    const r = await deps.counters.increment(key, want, limit, expiresAtSec);
    if (r.allowed) return want;
    // another post took places meanwhile: ask for what is left, never more than before
    want = Math.min(want - 1, Math.max(0, limit - r.count));
  }
  return 0;
}

/**
 * Gives back what networks of a post that will not publish had reserved: their month's posts, the X credits of an
 * X network, and their places on the actor's monthly cap.
 */
export async function giveBack(deps: Pick<Deps, 'counters'>, post: Pick<PostRecord, 'account_id' | 'created_at' | 'cap_key' | 'cap_keys'>, networks: Array<Pick<NetworkRecord, 'platform' | 'x_credits'>>): Promise<void> {
  if (networks.length === 0) return;
  const at = Date.parse(post.created_at);
  await deps.counters.release(usageKeys.posts(post.account_id, at), networks.length);
  for (const n of networks) if (n.platform === 'x') await releaseXCredits(deps, post.account_id, at, n.x_credits);
  for (const k of [...(post.cap_key ? [post.cap_key] : []), ...(post.cap_keys ?? [])]) await deps.counters.release(k, networks.length);
}
