import { httpHandler } from '../../shared/http/handler';
import { connectionsRoutes as routes } from '../routes/connections';
import { AppError } from '../../shared/domain/errors';
import { startLinkOAuth } from '../../shared/app/connect-link/links';
import { connectPageUrl, findConnectLink } from '../../shared/app/connect-link/issue';
import { HOSTED_HEADERS, linkErrorHtml, seeOther } from '../../shared/http/pages/connect-page';
import { browserCookie } from '../../shared/app/oauth/browser';
import { assertFormToken, assertSameOrigin, formCookie } from '../../shared/http/form-guard';
import { formFields } from '../../shared/api/oauth-schemas';

/** The page's "Connect with …" button: 303 to the network's sign-in (with the browser's nonce cookie); problems go back to the page with a message. */
export const handler = httpHandler(routes.postConnectPageOauth, async (req) => {
  const { token, platform } = req.params;
  try {
    assertSameOrigin(req.headers, req.deps.settings.publicBaseUrl);
    await findConnectLink(req.deps, token); // an unknown or expired link answers 404 / 410 first
    assertFormToken(formFields(req.rawBody, req.body).form_token, formCookie(req.event.cookies, req.headers.cookie), req.headers);
    const { url, nonce } = await startLinkOAuth(req.deps, token, platform);
    return { ...seeOther(url), cookies: [browserCookie(req.deps, platform, nonce)] };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 403 || err.status === 404 || err.status === 410) return { status: err.status, html: linkErrorHtml(err.status, err.message), headers: HOSTED_HEADERS };
    const back = new URL(connectPageUrl(req.deps, token));
    back.searchParams.set('failed', platform);
    back.searchParams.set('code', err.code);
    return seeOther(back.toString());
  }
});
