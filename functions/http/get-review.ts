import { httpHandler } from '../../shared/http/handler';
import { approvalsRoutes as routes } from '../routes/approvals';
import { AppError } from '../../shared/domain/errors';
import { pageReply } from '../../shared/http/dashboard/layout';
import { reviewPage, reviewProblemPage } from '../../shared/http/dashboard/approval-views';
import { approvalView, openReviewLink } from '../../shared/app/approvals/approvals';
import { markFor } from '../../shared/app/dashboard/branding';

/** A review link (owner's email or client approver): the held post and two buttons; the GET never decides. */
export const handler = httpHandler(routes.getReview, async (req) => {
  const noReferrer = { 'referrer-policy': 'no-referrer' };
  try {
    const { approval, role } = await openReviewLink(req.deps, req.params.token);
    const mark = await markFor(req.deps, approval.account_id, approval.brand_id);
    return pageReply(200, reviewPage(approvalView(approval), req.params.token, role, mark), noReferrer);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return pageReply(err.status, reviewProblemPage(err.status, err.message), noReferrer);
  }
});
