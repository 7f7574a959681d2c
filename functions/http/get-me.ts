import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { accountRoutes as routes } from '../routes/account';
import { me } from '../../shared/app/usage';

export const handler = httpHandler(routes.getMe, async (req) => ok(await me(req.deps, req.principal.account, req.principal.key.id, req.principal.key.above)));
