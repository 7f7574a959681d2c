import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { connectionsRoutes as routes } from '../routes/connections';
import { listConnections } from '../../shared/app/connections';

export const handler = httpHandler(routes.getConnections, async (req) => ok(await listConnections(req.deps, req.principal.account.id)));
