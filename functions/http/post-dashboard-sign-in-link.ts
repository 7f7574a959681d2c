import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { pageReply, redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { linkProblemPage } from '../../shared/http/dashboard/sign-in-views';
import { sessionCookie } from '../../shared/http/session';
import { completeSignIn } from '../../shared/app/dashboard/sign-in';
import { SignInLinkForm } from '../../shared/api/dashboard-schemas';
import { assertSameOrigin } from '../../shared/http/form-guard';

/**
 * The "Sign in" button: uses the link once, sets the session cookie, 303 to where the owner was going. Only the
 * link's own page may post it (403 cross_site_form, no cookie, the link unused): another site cannot sign a browser
 * in to the attacker's account (login CSRF).
 */
export const handler = httpHandler(routes.postDashboardSignInLink, async (req) => {
  assertSameOrigin(req.headers, req.deps.settings.publicBaseUrl);
  try {
    const { token } = parseForm(req, SignInLinkForm);
    const res = await completeSignIn(req.deps, token);
    return redirect(res.returnTo, [sessionCookie(req.deps.settings.publicBaseUrl, res.sessionId)]);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return pageReply(err.status, linkProblemPage(err.status, err.message));
  }
});
