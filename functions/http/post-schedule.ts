import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { createSchedule } from '../../shared/app/schedule/create';

export const handler = httpHandler(routes.postSchedule, async (req) =>
  ok(await createSchedule(req.deps, req.principal.account, req.body, req.principal.actor, req.principal.context)));
