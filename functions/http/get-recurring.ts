import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { getRecurring } from '../../shared/app/schedule/recurring';

export const handler = httpHandler(routes.getRecurring, async (req) =>
  ok(await getRecurring(req.deps, req.principal.account.id, req.params.id)));
