import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { createUploadLink } from '../../shared/app/media/upload-links';

export const handler = httpHandler(routes.postMediaUploadLink, async (req) =>
  ok(await createUploadLink(req.deps, req.principal.account.id, req.body)));
