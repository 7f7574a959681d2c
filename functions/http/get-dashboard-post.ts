import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { postDetailBody } from '../../shared/http/dashboard/posts-views';
import { getPost } from '../../shared/app/publish/queries';
import { postChangeForms } from '../../shared/http/dashboard/post-change-views';

/** One post: its per-network results and events. */
export const handler = httpHandler(routes.getDashboardPost, async (req) => {
  const p = req.principal;
  const post = await getPost(req.deps, p.account.id, req.params.id);
  return pageReply(200, dashboardShell({ title: `Post ${post.id}`, active: 'posts', csrf: p.csrf, email: p.account.email, body: postDetailBody(post) + postChangeForms(post, p.csrf, req.deps.networkLimits) }));
});
