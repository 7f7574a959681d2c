import { httpHandler } from '../../shared/http/handler';
import { mcpRoutes as routes } from '../routes/mcp';
import { AppError } from '../../shared/domain/errors';
import { redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { setAppGuardrails } from '../../shared/app/mcp-oauth/apps';
import { AppGuardrailsForm, GUARDRAILS_FORM_LISTS } from '../../shared/api/dashboard-schemas';

/** An AI app's guardrails from the AI apps page, then back to it saying what happened. */
export const handler = httpHandler(routes.postDashboardAppGuardrails, async (req) => {
  try {
    await setAppGuardrails(req.deps, req.principal.account, req.params.id, parseForm(req, AppGuardrailsForm, GUARDRAILS_FORM_LISTS));
    return redirect(`/dashboard/apps?done=guardrails#${encodeURIComponent(req.params.id)}`);
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/apps?error=${encodeURIComponent(err.code)}`);
  }
});
