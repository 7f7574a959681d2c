import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { patchSchedule } from '../../shared/app/schedule/manage';

export const handler = httpHandler(routes.patchSchedule, async (req) =>
  ok(await patchSchedule(req.deps, req.principal.account, req.params.id, req.body)));
