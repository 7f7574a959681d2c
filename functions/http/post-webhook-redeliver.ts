import { httpHandler } from '../../shared/http/handler';
import { accepted } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { redeliver } from '../../shared/app/webhooks/deliveries';

export const handler = httpHandler(routes.postWebhookRedeliver, async (req) =>
  accepted(await redeliver(req.deps, req.principal.account.id, req.params.id, req.params.delivery_id)));
