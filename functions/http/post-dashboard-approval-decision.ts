import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { decideAsOwner } from '../../shared/app/approvals/approvals';
import { DecisionForm } from '../../shared/api/approval-schemas';

/** The owner's decision from the dashboard; back to the Approvals page saying what happened. */
export const handler = httpHandler(routes.postDashboardApprovalDecision, async (req) => {
  const form = parseForm(req, DecisionForm);
  try {
    const decided = await decideAsOwner(req.deps, req.principal.account, req.params.id, form.decision, form.note);
    // an approval whose post could not be published says so (and why, on the post's page)
    if (decided.publish_error) return redirect(`/dashboard/approvals?done=approved_not_published#${decided.approval_id}`);
    return redirect(`/dashboard/approvals?done=${decided.status}`);
  } catch (err) {
    if (err instanceof AppError && err.status === 409) return redirect(`/dashboard/approvals?error=${err.code}`);
    throw err;
  }
});
