import { httpHandler } from '../../shared/http/handler';
import { accepted } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { testWebhook } from '../../shared/app/webhooks/endpoints';

export const handler = httpHandler(routes.postWebhookTest, async (req) => accepted(await testWebhook(req.deps, req.principal.account.id, req.params.id)));
