import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { listWebhooks } from '../../shared/app/webhooks/endpoints';

export const handler = httpHandler(routes.getWebhooks, async (req) => ok(await listWebhooks(req.deps, req.principal.account.id)));
