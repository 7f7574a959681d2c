import { httpHandler } from '../../shared/http/handler';
import { connectionsRoutes as routes } from '../routes/connections';
import { AppError } from '../../shared/domain/errors';
import { formFields } from '../../shared/api/oauth-schemas';
import { connectPage, connectWithLink } from '../../shared/app/connect-link/links';
import { connectPageUrl, findConnectLink } from '../../shared/app/connect-link/issue';
import { assertFormToken, assertSameOrigin, formCookie, newFormToken } from '../../shared/http/form-guard';
import { connectPageHtml, displayName, HOSTED_HEADERS, hostedHeaders, linkErrorHtml, seeOther } from '../../shared/http/pages/connect-page';
import { signInOrigins } from '../../shared/app/oauth/flow';

/**
 * The page's credential form: on success 303 back to the page (which shows the connection); on refusal the page
 * again with the network's message next to its form (nothing saved).
 */
export const handler = httpHandler(routes.postConnectPageCredentials, async (req) => {
  const { token, platform } = req.params;
  const base = connectPageUrl(req.deps, token);
  try {
    const form = formFields(req.rawBody, req.body);
    assertSameOrigin(req.headers, req.deps.settings.publicBaseUrl);
    await findConnectLink(req.deps, token); // an unknown or expired link answers 404 / 410 first
    assertFormToken(form.form_token, formCookie(req.event.cookies, req.headers.cookie), req.headers);
    await connectWithLink(req.deps, token, platform, form);
    const back = new URL(base);
    back.searchParams.set('connected', platform);
    return seeOther(back.toString());
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 403 || err.status === 404 || err.status === 410) {
      return { status: err.status, html: linkErrorHtml(err.status, err.message), headers: HOSTED_HEADERS };
    }
    const model = await connectPage(req.deps, token);
    const page = newFormToken(req.deps.settings.publicBaseUrl);
    const html = connectPageHtml(model, base, req.deps.clock.now(), { kind: 'error', platform, text: `${displayName(platform)} was not connected: ${err.message}` }, undefined, page.token);
    return { status: err.status, html, headers: hostedHeaders(await signInOrigins(req.deps, model.networks.map((n) => n.platform))), cookies: [page.cookie] };
  }
});
