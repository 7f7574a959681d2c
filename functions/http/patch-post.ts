import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { postLifecycleRoutes as routes } from '../routes/post-lifecycle';
import { editPost } from '../../shared/app/post-changes/request-change';

export const handler = httpHandler(routes.patchPost, async (req) =>
  ok(await editPost(req.deps, req.principal.account.id, req.params.id, req.body, { actor: req.principal.actor, context: req.principal.context })));
