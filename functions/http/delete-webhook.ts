import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { deleteWebhook } from '../../shared/app/webhooks/endpoints';

export const handler = httpHandler(routes.deleteWebhook, async (req) => ok(await deleteWebhook(req.deps, req.principal.account.id, req.params.id)));
