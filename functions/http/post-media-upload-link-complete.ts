import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { assertFormToken, assertSameOrigin, formCookie, FORM_TOKEN_HEADER } from '../../shared/http/form-guard';
import { completeLinkUpload } from '../../shared/app/media/upload-links';

/** The upload page reports the PUT finished: the file is checked and the link closed. */
export const handler = httpHandler(routes.postMediaUploadLinkComplete, async (req) => {
  assertSameOrigin(req.headers, req.deps.settings.publicBaseUrl);
  assertFormToken(req.headers[FORM_TOKEN_HEADER], formCookie(req.event.cookies, req.headers.cookie), req.headers);
  return ok(await completeLinkUpload(req.deps, req.params.token, req.body.path));
});
