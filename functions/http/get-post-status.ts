import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { publishingRoutes as routes } from '../routes/publishing';
import { postStatus } from '../../shared/app/publish/queries';

export const handler = httpHandler(routes.getPostStatus, async (req) =>
  ok(await postStatus(req.deps, req.principal.account.id, req.query.platform, req.query.id)));
