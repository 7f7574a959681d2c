import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { routes } from '../../infra/routes';
import { completeLinkUpload } from '../../shared/app/media/upload-links';

/** The upload page reports the PUT finished: the file is checked and the link closed. */
export const handler = httpHandler(routes.postMediaUploadLinkComplete, async (req) =>
  ok(await completeLinkUpload(req.deps, req.params.token, req.body.path)));
