import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { accountRoutes as routes } from '../routes/account';
import { usage } from '../../shared/app/usage';

export const handler = httpHandler(routes.getUsage, async (req) => ok(await usage(req.deps, req.principal.account, req.principal.key.id)));
