import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { accountRoutes as routes } from '../routes/account';
import { setRedirectOrigins } from '../../shared/app/security/redirects';

export const handler = httpHandler(routes.patchMe, async (req) =>
  ok(await setRedirectOrigins(req.deps, req.principal.account, req.body.redirect_origins)));
