import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';
import type { PublishContent } from '../../domain/content';
import { bucketOf, earlierBuckets, freesAt, NETWORK_BUDGETS, type BudgetWindow, type NetworkBudget } from '../../domain/network-budgets';

/**
 * A network's own publishing quota, spent before sending (shared/domain/network-budgets.ts): each rolling window
 * is read (its earlier parts) and its current part takes the post with a conditional ADD whose limit is what the
 * earlier parts leave, so concurrent workers of one social account never pass the network's limit together.
 */

export type BudgetDeps = Pick<Deps, 'clock' | 'counters'>;

/** Spent: the counter parts it went to, to give back when the network refused before accepting anything. */
export interface BudgetTaken { ok: true; spent: Array<{ key: string; amount: number }> }
/** No room: when the first window that refused has room again (ms), and what it counts. */
export interface BudgetRefused { ok: false; frees_at: number; retry_after: number; error: string }

const keyOf = (platform: PlatformName, owner: string, w: BudgetWindow, bucket: number) => `budget#${platform}#${owner}#${w.name}#${bucket}`;

/** Takes one post's cost from the network's budget of `connectionId` (nothing to take where the network has none). */
export async function takeBudget(deps: BudgetDeps, platform: PlatformName, connectionId: string, content: Pick<PublishContent, 'thread'>): Promise<BudgetTaken | BudgetRefused> {
  const budget: NetworkBudget | undefined = NETWORK_BUDGETS[platform];
  if (!budget) return { ok: true, spent: [] };
  const owner = budget.scope === 'connection' ? connectionId : 'deployment';
  const amount = budget.cost(content);
  const now = deps.clock.now();
  const spent: BudgetTaken['spent'] = [];
  for (const w of budget.windows) {
    const earlier = earlierBuckets(w, now);
    const counts = await deps.counters.getMany(earlier.map((b) => keyOf(platform, owner, w, b)));
    const used = counts.reduce((a, b) => a + b, 0);
    const current = bucketOf(w, now);
    const key = keyOf(platform, owner, w, current);
    const expiresAtSec = Math.ceil(((current + w.buckets + 1) * (w.windowMs / w.buckets)) / 1000);
    const res = await deps.counters.increment(key, amount, Math.max(0, w.limit - used), expiresAtSec);
    if (!res.allowed) {
      await giveBackBudget(deps, { ok: true, spent });
      const at = freesAt(w, [...counts, res.count], amount, now);
      const retry_after = Math.max(1, Math.ceil((at - now) / 1000));
      return {
        ok: false, frees_at: at, retry_after,
        error: `${platform} allows ${w.limit} ${budget.unit} per ${w.name}${budget.scope === 'connection' ? ' per account' : ' per deployment'}; room again at ${new Date(at).toISOString()}`,
      };
    }
    spent.push({ key, amount });
  }
  return { ok: true, spent };
}

/** Gives a taken budget back (the network refused before accepting anything). */
export async function giveBackBudget(deps: BudgetDeps, taken: BudgetTaken): Promise<void> {
  await Promise.all(taken.spent.map((s) => deps.counters.release(s.key, s.amount)));
}
