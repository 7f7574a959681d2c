import { httpHandler } from '../../shared/http/handler';
import { approvalsRoutes as routes } from '../routes/approvals';
import { AppError } from '../../shared/domain/errors';
import { pageReply } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { reviewDonePage, reviewProblemPage } from '../../shared/http/dashboard/approval-views';
import { decideWithLink } from '../../shared/app/approvals/approvals';
import { ReviewForm } from '../../shared/api/approval-schemas';

/** Decides through a review link, once: approve publishes through the publish path, reject sends nothing. */
export const handler = httpHandler(routes.postReview, async (req) => {
  const noReferrer = { 'referrer-policy': 'no-referrer' };
  try {
    const form = parseForm(req, ReviewForm);
    const decided = await decideWithLink(req.deps, req.params.token, form.decision, form.note);
    return pageReply(200, reviewDonePage(decided), noReferrer);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const status = err.status === 409 ? 410 : err.status;
    return pageReply(status, reviewProblemPage(status, err.message), noReferrer);
  }
});
