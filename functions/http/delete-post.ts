import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { postLifecycleRoutes as routes } from '../routes/post-lifecycle';
import { deletePost } from '../../shared/app/post-changes/request-change';

export const handler = httpHandler(routes.deletePost, async (req) =>
  ok(await deletePost(req.deps, req.principal.account.id, req.params.id, { platforms: req.query.platforms }, { actor: req.principal.actor, context: req.principal.context })));
