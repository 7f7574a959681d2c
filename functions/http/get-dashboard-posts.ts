import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { postsBody } from '../../shared/http/dashboard/posts-views';
import { postsPage } from '../../shared/app/dashboard/posts';

/** Posts: the filtered activity log, 50 a page, each post linking to its results and events. */
export const handler = httpHandler(routes.getDashboardPosts, async (req) => {
  const p = req.principal;
  const data = await postsPage(req.deps, p.account.id, req.query);
  return pageReply(200, dashboardShell({ title: 'Posts', active: 'posts', csrf: p.csrf, email: p.account.email, body: postsBody({ q: req.query, brands: data.brands, posts: data.posts, next: data.next_before }) }));
});
