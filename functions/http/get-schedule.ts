import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { getSchedule } from '../../shared/app/schedule/manage';

export const handler = httpHandler(routes.getSchedule, async (req) =>
  ok(await getSchedule(req.deps, req.principal.account.id, req.params.id)));
