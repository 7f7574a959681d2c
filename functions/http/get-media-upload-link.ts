import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { uploadLinkStatus } from '../../shared/app/media/upload-links';

export const handler = httpHandler(routes.getMediaUploadLink, async (req) =>
  ok(await uploadLinkStatus(req.deps, req.principal.account.id, req.params.token)));
