import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { connectionsRoutes as routes } from '../routes/connections';
import { connect } from '../../shared/app/connections';

export const handler = httpHandler(routes.postConnect, async (req) => ok(await connect(req.deps, req.principal.account, req.body, req.principal.actor)));
