import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { connectionsRoutes as routes } from '../routes/connections';
import { connectionHealth } from '../../shared/app/connections';

export const handler = httpHandler(routes.getConnectHealth, async (req) =>
  ok(await connectionHealth(req.deps, req.principal.account, req.params.platform, req.query.brand_id)));
