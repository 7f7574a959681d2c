import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { createUploadUrl } from '../../shared/app/media/uploads';

export const handler = httpHandler(routes.postMediaUploadUrl, async (req) =>
  ok(await createUploadUrl(req.deps, req.principal.account.id, req.body)));
