import { randomBytes } from 'node:crypto';
import { httpHandler } from '../../shared/http/handler';
import { escapeHtml, html, page } from '../../shared/http/reply';
import { mediaRoutes as routes } from '../routes/media';
import { openUploadLink } from '../../shared/app/media/upload-links';
import { storageOrigin } from '../../shared/app/media/uploads';
import { uploadLinkApiPath, uploadPage, uploadPageCsp } from '../../shared/http/upload-page';
import { newFormToken } from '../../shared/http/form-guard';
import { AppError } from '../../shared/domain/errors';
import { markFor } from '../../shared/app/dashboard/branding';

/**
 * The hosted upload page of an upload link: the page itself with its per-page token (and the cookie that holds it for
 * the link's two requests), or a 404 / 410 page (the link is unknown, used or expired).
 */
export const handler = httpHandler(routes.getMediaUploadPage, async (req) => {
  try {
    const link = await openUploadLink(req.deps, req.params.token);
    const nonce = randomBytes(16).toString('base64');
    const mark = await markFor(req.deps, link.account_id);
    const form = newFormToken(req.deps.settings.publicBaseUrl, uploadLinkApiPath(req.params.token));
    const body = uploadPage({ token: req.params.token, formToken: form.token, contentType: link.content_type, note: link.note, expiresAt: new Date(link.expires_at * 1000), nonce, mark });
    return { ...html(body), headers: { 'content-security-policy': uploadPageCsp(nonce, await storageOrigin(req.deps)), 'referrer-policy': 'no-referrer' }, cookies: [form.cookie] };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return html(page('Upload link not valid', `<main><h1>This upload link cannot be used</h1><p>${escapeHtml(err.message)}.</p></main>`), err.status);
  }
});
