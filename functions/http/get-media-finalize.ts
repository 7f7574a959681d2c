import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { finalizeUpload } from '../../shared/app/media/uploads';

export const handler = httpHandler(routes.getMediaFinalize, async (req) =>
  ok(await finalizeUpload(req.deps, req.principal.account.id, req.query.path)));
