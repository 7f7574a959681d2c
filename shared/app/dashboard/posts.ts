import type { Deps } from '../deps';
import type { ActivityQuery } from '../../api/dashboard-schemas';
import { activityPage, exportActivity, type ActivityFilter } from './activity';

const filterOf = (q: ActivityQuery): ActivityFilter => ({ brand_id: q.brand, platform: q.platform, status: q.status, source: q.source, from: q.from, to: q.to });

/** The Posts page: one page of the filtered activity log and the account's brands (for the filter). */
export async function postsPage(deps: Pick<Deps, 'posts' | 'approvals' | 'brands'>, accountId: string, q: ActivityQuery) {
  const [page, brands] = await Promise.all([activityPage(deps, accountId, filterOf(q), 50, q.before), deps.brands.list(accountId)]);
  return { ...page, brands };
}

/** Export CSV of the Posts page's filters. */
export const exportPosts = (deps: Pick<Deps, 'posts' | 'approvals' | 'analytics' | 'blobs' | 'clock'>, accountId: string, q: ActivityQuery) => exportActivity(deps, accountId, filterOf(q));
