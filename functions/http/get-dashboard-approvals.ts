import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { approvalsBody } from '../../shared/http/dashboard/approval-views';
import { approvalsPage } from '../../shared/app/approvals/approvals';
import { flashOf } from '../../shared/http/dashboard/flash';

/** Approvals: the queue (approve / reject with a note), recent decisions, and the rules. */
export const handler = httpHandler(routes.getDashboardApprovals, async (req) => {
  const p = req.principal;
  const data = await approvalsPage(req.deps, p.account);
  const flash = flashOf(req.query);
  return pageReply(200, dashboardShell({ title: 'Approvals', active: 'approvals', csrf: p.csrf, email: p.account.email, body: approvalsBody({ ...data, csrf: p.csrf, flash }) }));
});
