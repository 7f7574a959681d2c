import { httpHandler } from '../../shared/http/handler';
import { mediaRoutes as routes } from '../routes/media';
import { mediaDownloadUrl } from '../../shared/app/media/uploads';

/** media_url: 302 to a fresh short-lived presigned GET of the object (404 once deleted or expired). */
export const handler = httpHandler(routes.getMediaFile, async (req) => ({
  status: 302,
  headers: { location: await mediaDownloadUrl(req.deps, req.params.file), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
}));
