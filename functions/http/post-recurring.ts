import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { createRecurring } from '../../shared/app/schedule/recurring';

export const handler = httpHandler(routes.postRecurring, async (req) =>
  ok(await createRecurring(req.deps, req.principal.account, req.body, req.principal.actor)));
