import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { listSchedules } from '../../shared/app/schedule/manage';

export const handler = httpHandler(routes.getSchedules, async (req) =>
  ok(await listSchedules(req.deps, req.principal.account.id, req.query)));
