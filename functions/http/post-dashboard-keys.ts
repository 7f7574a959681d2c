import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { dashboardShell, pageReply, redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { keysBody } from '../../shared/http/dashboard/keys-views';
import { keysAction, keysPage } from '../../shared/app/dashboard/keys';
import { KEYS_FORM_LISTS, KeysForm } from '../../shared/api/dashboard-schemas';

/** API keys actions: a new key's secret is shown once on this answer (never redirected, never stored). */
export const handler = httpHandler(routes.postDashboardKeys, async (req) => {
  const p = req.principal;
  try {
    const res = await keysAction(req.deps, p.account, parseForm(req, KeysForm, KEYS_FORM_LISTS));
    if (!res.created) return redirect(`/dashboard/keys?done=${res.done}`);
    const data = await keysPage(req.deps, p.account);
    return pageReply(200, dashboardShell({ title: 'API keys', active: 'keys', csrf: p.csrf, email: p.account.email, body: keysBody(data, p.csrf, undefined, res.created) }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/keys?error=${err.code}`);
  }
});
