import { httpHandler } from '../../shared/http/handler';
import { mediaRoutes as routes } from '../routes/media';
import { mediaFileHead } from '../../shared/app/media/uploads';

/** HEAD on a media_url: the file's Content-Type and Content-Length, no body. */
export const handler = httpHandler(routes.headMediaFile, async (req) => {
  const head = await mediaFileHead(req.deps, req.params.file);
  return { status: 200, headers: { 'content-type': head.content_type, 'content-length': String(head.size_bytes), 'cache-control': 'no-store' } };
});
