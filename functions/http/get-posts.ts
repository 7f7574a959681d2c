import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { publishingRoutes as routes } from '../routes/publishing';
import { listPosts } from '../../shared/app/publish/queries';

export const handler = httpHandler(routes.getPosts, async (req) =>
  ok(await listPosts(req.deps, req.principal.account.id, req.query.limit, req.query.before)));
