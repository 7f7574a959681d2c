import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { deleteRecurring } from '../../shared/app/schedule/recurring';

export const handler = httpHandler(routes.deleteRecurring, async (req) =>
  ok(await deleteRecurring(req.deps, req.principal.account.id, req.params.id)));
