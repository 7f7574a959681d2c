import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { dashboardShell, notice, pageReply } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { clientLinkSentBody } from '../../shared/http/dashboard/approval-views';
import { createClientLink } from '../../shared/app/approvals/approvals';
import { ClientLinkForm } from '../../shared/api/approval-schemas';

/** "Send to client" on the Approvals page (Pro and above): the single-use review link, shown and optionally emailed. */
export const handler = httpHandler(routes.postDashboardApprovalClientLink, async (req) => {
  const p = req.principal;
  const shell = (body: string) => dashboardShell({ title: 'Send to client', active: 'approvals', csrf: p.csrf, email: p.account.email, body });
  try {
    const form = parseForm(req, ClientLinkForm);
    const link = await createClientLink(req.deps, p.account, req.params.id, form.client_email);
    return pageReply(200, shell(clientLinkSentBody(link)));
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return pageReply(err.status, shell(`<h1>Send to client</h1>${notice('error', err.message)}<p><a href="/dashboard/approvals">Back to approvals</a></p>`));
  }
});
