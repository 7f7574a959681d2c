import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { routes } from '../../infra/routes';
import { NotFoundError } from '../../shared/domain/errors';

/** Local mode only: switch an account's plan without billing, to try paid features. */
export const handler = httpHandler(routes.devPlan, async (req) => {
  if (req.deps.settings.runtime !== 'local') throw new NotFoundError();
  const id = await req.deps.accounts.findIdByEmail(req.body.email);
  if (!id) throw new NotFoundError('No account with that email');
  await req.deps.accounts.setPlan(id, req.body.plan);
  return ok({ email: req.body.email, plan: req.body.plan });
});
