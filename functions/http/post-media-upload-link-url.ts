import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { assertFormToken, assertSameOrigin, formCookie, FORM_TOKEN_HEADER } from '../../shared/http/form-guard';
import { linkUploadUrl } from '../../shared/app/media/upload-links';

/** The upload page asks for a presigned PUT with the link's token (no login). */
export const handler = httpHandler(routes.postMediaUploadLinkUrl, async (req) => {
  assertSameOrigin(req.headers, req.deps.settings.publicBaseUrl);
  assertFormToken(req.headers[FORM_TOKEN_HEADER], formCookie(req.event.cookies, req.headers.cookie), req.headers);
  return ok(await linkUploadUrl(req.deps, req.params.token, req.body));
});
