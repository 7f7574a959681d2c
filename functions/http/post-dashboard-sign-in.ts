import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { pageReply } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { checkEmailPage, signInPage } from '../../shared/http/dashboard/sign-in-views';
import { requestSignInLink } from '../../shared/app/dashboard/sign-in';
import { SignInForm } from '../../shared/api/dashboard-schemas';

/** Emails a sign-in link; the same "check your email" page for known and unknown addresses. */
export const handler = httpHandler(routes.postDashboardSignIn, async (req) => {
  let email: string | undefined;
  try {
    const form = parseForm(req, SignInForm);
    email = form.email;
    await requestSignInLink(req.deps, { email: form.email, ip: req.ip, returnTo: form.return });
    return pageReply(200, checkEmailPage(form.email));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const message = err.status === 429 ? 'Too many sign-in requests: wait a while and try again' : 'Enter a valid email address';
    return pageReply(err.status, signInPage({ error: message, email }), err.headers);
  }
});
