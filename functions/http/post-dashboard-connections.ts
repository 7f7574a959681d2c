import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { escapeHtml as e } from '../../shared/http/reply';
import { dashboardShell, notice, pageReply, redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { connectionsBody } from '../../shared/http/dashboard/settings-views';
import { connectionsAction, connectionsPage } from '../../shared/app/dashboard/settings';
import { ConnectionsForm } from '../../shared/api/dashboard-schemas';

/** Connections actions: a health check's answer or a new connect link is shown on the page; disconnect redirects. */
export const handler = httpHandler(routes.postDashboardConnections, async (req) => {
  const p = req.principal;
  try {
    const res = await connectionsAction(req.deps, p.account, parseForm(req, ConnectionsForm));
    if ('done' in res) return redirect(`/dashboard/connections?done=${res.done}`);
    const h = 'health' in res ? res.health : undefined;
    const extra = h
      ? notice(h.ok ? 'ok' : 'error', `${h.platform} (${h.handle}): ${h.ok ? 'working' : `not working: ${'error' in h ? h.error : 'unknown'}`}`)
      : 'link' in res && res.link ? `<div class="notice ok" role="status"><p>Connect link (works until ${e(res.link.expires_at.slice(11, 16))} UTC):</p><p><code id="connect-link">${e(res.link.url)}</code></p></div>` : '';
    const data = await connectionsPage(req.deps, p.account.id);
    return pageReply(200, dashboardShell({ title: 'Connections', active: 'connections', csrf: p.csrf, email: p.account.email, body: connectionsBody(data, p.csrf, undefined, extra) }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/connections?error=${err.code}`);
  }
});
