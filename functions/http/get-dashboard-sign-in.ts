import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { pageReply } from '../../shared/http/dashboard/layout';
import { signInPage } from '../../shared/http/dashboard/sign-in-views';
import { safeReturnPath } from '../../shared/app/dashboard/sign-in';

/** The sign-in page: an email field for a magic link. */
export const handler = httpHandler(routes.getDashboardSignIn, async (req) =>
  pageReply(200, signInPage({ returnTo: req.query.return ? safeReturnPath(req.query.return) : undefined })));
