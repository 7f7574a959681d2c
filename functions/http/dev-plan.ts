import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { localRoutes as routes } from '../routes/local';
import { NotFoundError } from '../../shared/domain/errors';
import { setPlanManually } from '../../shared/app/billing/plan-state';

/** Local mode only: switch an account's plan without billing, to try paid features (recorded in the plan history). */
export const handler = httpHandler(routes.devPlan, async (req) => {
  if (req.deps.settings.runtime !== 'local') throw new NotFoundError();
  const id = await req.deps.accounts.findIdByEmail(req.body.email);
  if (!id) throw new NotFoundError('No account with that email');
  await setPlanManually(req.deps, id, req.body.plan);
  return ok({ email: req.body.email, plan: req.body.plan });
});
