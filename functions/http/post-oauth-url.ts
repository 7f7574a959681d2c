import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { connectionsRoutes as routes } from '../routes/connections';
import { startOAuth } from '../../shared/app/oauth/flow';

/** POST /api/oauth/{platform}/url → {url}: the network's sign-in page for one of the caller's brands. */
export const handler = httpHandler(routes.postOauthUrl, async (req) =>
  ok(await startOAuth(req.deps, req.principal.account, req.params.platform, req.body ?? {}, req.principal.actor)));
