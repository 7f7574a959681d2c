import { httpHandler } from '../../shared/http/handler';
import { routes } from '../../infra/routes';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { approvalsBody } from '../../shared/http/dashboard/approval-views';
import { approvalsPage } from '../../shared/app/approvals/approvals';

const DONE: Record<string, string> = { approved: 'Approved: the post is being published.', rejected: 'Rejected: nothing was published.', rule: 'The approval rule is saved.' };

/** Approvals: the queue (approve / reject with a note), recent decisions, and the rules. */
export const handler = httpHandler(routes.getDashboardApprovals, async (req) => {
  const p = req.principal;
  const data = await approvalsPage(req.deps, p.account);
  const flash = req.query.error ? { kind: 'error' as const, text: req.query.error === 'approval_decided' ? 'That post was already decided.' : `That did not work (${req.query.error}).` }
    : req.query.done && DONE[req.query.done] ? { kind: 'ok' as const, text: DONE[req.query.done] } : undefined;
  return pageReply(200, dashboardShell({ title: 'Approvals', active: 'approvals', csrf: p.csrf, email: p.account.email, body: approvalsBody({ ...data, csrf: p.csrf, flash }) }));
});
