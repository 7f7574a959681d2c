import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { listRecurring } from '../../shared/app/schedule/recurring';

export const handler = httpHandler(routes.getRecurringList, async (req) =>
  ok(await listRecurring(req.deps, req.principal.account.id)));
