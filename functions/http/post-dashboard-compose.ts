import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { dashboardHeaders, dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { composeBody } from '../../shared/http/dashboard/compose-views';
import { composeAction, composePage, type ComposeOutcome } from '../../shared/app/dashboard/compose';
import { COMPOSE_FORM_LISTS, ComposeForm } from '../../shared/api/dashboard-schemas';

/**
 * Compose buttons: the page answers with the outcome (verdicts, results, schedule, approval, upload link) or the
 * refusal as the API words it (a 4xx code, never a 500), with everything typed kept in the form.
 */
export const handler = httpHandler(routes.postDashboardCompose, async (req) => {
  const p = req.principal;
  const form = parseForm(req, ComposeForm, COMPOSE_FORM_LISTS);
  let outcome: ComposeOutcome | undefined;
  let error: { message: string; code: string; status: number } | undefined;
  try {
    outcome = await composeAction(req.deps, p.account, form);
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    error = { message: err.message, code: err.code, status: err.status };
  }
  const values = outcome?.kind === 'upload_link' ? { ...form, upload_token: outcome.token } : form;
  const page = await composePage(req.deps, p.account, form.brand_id);
  const body = composeBody({ page, csrf: p.csrf, values, outcome, error });
  return pageReply(error?.status ?? 200, dashboardShell({ title: 'Compose', active: 'compose', csrf: p.csrf, email: p.account.email, body }), dashboardHeaders({ script: true }));
});
