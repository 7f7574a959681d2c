import { httpHandler } from '../../shared/http/handler';
import { mcpRoutes as routes } from '../routes/mcp';
import { dashboardHeaders, pageReply, plainPage } from '../../shared/http/dashboard/layout';
import { authorizeErrorBody, consentBody } from '../../shared/http/dashboard/apps-views';
import { checkAuthorizeRequest, UnredirectableAuthorizeError } from '../../shared/app/mcp-oauth/authorize';

/** The authorization endpoint: the consent page for a valid request, an error page otherwise (never a redirect before consent). */
export const handler = httpHandler(routes.getDashboardAppsAuthorize, async (req) => {
  const p = req.principal;
  try {
    const checked = await checkAuthorizeRequest(req.deps, req.query);
    const brands = (await req.deps.brands.list(p.account.id)).map((b) => b.name);
    const target = new URL(checked.request.redirect_uri);
    const formAction = [target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : target.protocol];
    return pageReply(200, plainPage({ title: `Allow ${checked.client.client_name}?`, body: consentBody({ client: checked.client, request: checked.request, email: p.account.email, brands, csrf: p.csrf }) }), dashboardHeaders({ formAction }));
  } catch (err) {
    if (err instanceof UnredirectableAuthorizeError) return pageReply(400, plainPage({ title: 'Sign-in request refused', body: authorizeErrorBody(`${err.message} (${err.error})`) }));
    throw err;
  }
});
