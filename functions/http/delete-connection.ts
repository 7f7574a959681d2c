import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { connectionsRoutes as routes } from '../routes/connections';
import { disconnect } from '../../shared/app/connections';

export const handler = httpHandler(routes.deleteConnection, async (req) => ok(await disconnect(req.deps, req.principal.account.id, req.params.id, req.principal.actor)));
