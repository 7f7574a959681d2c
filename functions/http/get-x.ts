import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { publishingRoutes as routes } from '../routes/publishing';
import { xAddon } from '../../shared/app/publish/x-credits';

/** GET /api/x: the X add-on's rules and this month's credits. */
export const handler = httpHandler(routes.getX, async (req) => ok(await xAddon(req.deps, req.principal.account)));
