import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { setApprovalRule } from '../../shared/app/approvals/approvals';
import { RuleForm } from '../../shared/api/approval-schemas';

/** Saves the approval rule of the account or one brand. */
export const handler = httpHandler(routes.postDashboardApprovalRules, async (req) => {
  try {
    const form = parseForm(req, RuleForm, ['networks']);
    await setApprovalRule(req.deps, req.principal.account, { scope: form.scope, always: form.always === 'on', networks: form.networks ?? [] });
    return redirect('/dashboard/approvals?done=rule');
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/approvals?error=${err.code}`);
  }
});
