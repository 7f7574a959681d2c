import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { connectionsRoutes as routes } from '../routes/connections';
import { createConnectLink } from '../../shared/app/connect-link/links';

/** POST /api/connect-link → {url, token, expires_in: 3600, brand_id}. */
export const handler = httpHandler(routes.postConnectLink, async (req) =>
  ok(await createConnectLink(req.deps, req.principal.account, req.body ?? {}, req.principal.actor)));
