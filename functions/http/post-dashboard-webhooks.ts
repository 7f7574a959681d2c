import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { dashboardShell, pageReply, redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { flashOf } from '../../shared/http/dashboard/flash';
import { webhooksBody } from '../../shared/http/dashboard/settings-views';
import { webhooksAction, webhooksPage } from '../../shared/app/dashboard/settings';
import { WebhooksForm } from '../../shared/api/dashboard-schemas';

/** Webhooks actions: a new or rotated secret is shown once on this answer; the others redirect back. */
export const handler = httpHandler(routes.postDashboardWebhooks, async (req) => {
  const p = req.principal;
  try {
    const res = await webhooksAction(req.deps, p.account, parseForm(req, WebhooksForm, ['events']));
    if (!res.secret) return redirect(`/dashboard/webhooks?done=${res.done}${res.webhook_id ? `&log=${res.webhook_id}` : ''}`);
    const data = await webhooksPage(req.deps, p.account);
    return pageReply(200, dashboardShell({ title: 'Webhooks', active: 'webhooks', csrf: p.csrf, email: p.account.email, body: webhooksBody(data, p.csrf, flashOf({ done: res.done }), res.secret) }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/webhooks?error=${err.code}`);
  }
});
