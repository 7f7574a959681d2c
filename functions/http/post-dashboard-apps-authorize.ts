import { httpHandler } from '../../shared/http/handler';
import { mcpRoutes as routes } from '../routes/mcp';
import { dashboardHeaders, pageReply, plainPage } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { authorizeErrorBody } from '../../shared/http/dashboard/apps-views';
import { ConsentForm } from '../../shared/api/mcp-oauth-schemas';
import { decideAuthorization, UnredirectableAuthorizeError } from '../../shared/app/mcp-oauth/authorize';

/** The consent answer: back to the app's redirect URI with a code (allow) or access_denied (deny). */
export const handler = httpHandler(routes.postDashboardAppsAuthorize, async (req) => {
  const { decision, ...request } = parseForm(req, ConsentForm);
  try {
    const location = await decideAuthorization(req.deps, req.principal.account, request, decision === 'allow');
    const target = new URL(location);
    const formAction = [target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : target.protocol];
    return { status: 303, headers: { location, ...dashboardHeaders({ formAction }) } };
  } catch (err) {
    if (err instanceof UnredirectableAuthorizeError) return pageReply(400, plainPage({ title: 'Sign-in request refused', body: authorizeErrorBody(err.message) }));
    throw err;
  }
});
