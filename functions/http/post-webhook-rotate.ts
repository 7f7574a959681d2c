import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { rotateWebhookSecret } from '../../shared/app/webhooks/endpoints';

export const handler = httpHandler(routes.postWebhookRotate, async (req) => ok(await rotateWebhookSecret(req.deps, req.principal.account.id, req.params.id)));
