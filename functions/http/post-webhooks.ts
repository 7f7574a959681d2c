import { httpHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { createWebhook } from '../../shared/app/webhooks/endpoints';

export const handler = httpHandler(routes.postWebhooks, async (req) => created(await createWebhook(req.deps, req.principal.account, req.body)));
