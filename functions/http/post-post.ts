import { httpHandler } from '../../shared/http/handler';
import { accepted, ok } from '../../shared/http/reply';
import { publishingRoutes as routes } from '../routes/publishing';
import { validatePost } from '../../shared/app/publish/request';
import { publishPost } from '../../shared/app/publish/create-post';

/** Publishes (200 with one result per network) or, when an approval rule holds it, 202 pending_approval. */
export const handler = httpHandler(routes.postPost, async (req) => {
  const res = await publishPost(req.deps, req.principal.account, validatePost(req.body, req.deps.networkLimits), { source: 'api', wait: true, actor: req.principal.actor, context: req.principal.context });
  return 'status' in res ? accepted(res) : ok(res);
});
