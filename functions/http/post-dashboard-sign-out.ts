import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { clearedSessionCookie } from '../../shared/http/session';
import { pageReply } from '../../shared/http/dashboard/layout';
import { signedOutPage } from '../../shared/http/dashboard/sign-in-views';
import { signOut } from '../../shared/app/dashboard/sign-in';

/** Sign-out: the session ends at once and the cookie is cleared. */
export const handler = httpHandler(routes.postDashboardSignOut, async (req) => {
  await signOut(req.deps, req.principal);
  return { ...pageReply(200, signedOutPage()), cookies: [clearedSessionCookie(req.deps.settings.publicBaseUrl)] };
});
