import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { publishingRoutes as routes } from '../routes/publishing';
import { getPost } from '../../shared/app/publish/queries';

export const handler = httpHandler(routes.getPost, async (req) => ok(await getPost(req.deps, req.principal.account.id, req.params.id)));
