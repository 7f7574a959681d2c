import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { redirect } from '../../shared/http/dashboard/layout';
import { exportPosts } from '../../shared/app/dashboard/posts';

/** Export CSV: the filtered rows streamed into storage, then a 303 to the download. */
export const handler = httpHandler(routes.getDashboardPostsExport, async (req) => {
  const { url } = await exportPosts(req.deps, req.principal.account.id, req.query);
  return redirect(url);
});
