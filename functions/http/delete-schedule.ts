import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { cancelSchedule } from '../../shared/app/schedule/manage';

export const handler = httpHandler(routes.deleteSchedule, async (req) =>
  ok(await cancelSchedule(req.deps, req.principal.account.id, req.params.id)));
