import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { publishingRoutes as routes } from '../routes/publishing';
import { validatePublish } from '../../shared/app/publish/validate';

/** POST /api/validate: the dry run of POST /api/post or POST /api/schedule (sends, writes and spends nothing). */
export const handler = httpHandler(routes.postValidate, async (req) =>
  ok(await validatePublish(req.deps, req.principal.account, req.body, { actor: req.principal.actor, context: req.principal.context })));
