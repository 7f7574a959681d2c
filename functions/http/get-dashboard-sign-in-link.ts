import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { pageReply } from '../../shared/http/dashboard/layout';
import { linkProblemPage, signInLinkPage } from '../../shared/http/dashboard/sign-in-views';
import { checkSignInLink } from '../../shared/app/dashboard/sign-in';

/** The emailed link: one "Sign in" button that POSTs (a mail scanner's GET does not use the link). */
export const handler = httpHandler(routes.getDashboardSignInLink, async (req) => {
  try {
    await checkSignInLink(req.deps, req.query.token);
    return pageReply(200, signInLinkPage(req.query.token), { 'referrer-policy': 'no-referrer' });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return pageReply(err.status, linkProblemPage(err.status, err.message));
  }
});
