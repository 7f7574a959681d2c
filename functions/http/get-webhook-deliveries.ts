import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { webhooksRoutes as routes } from '../routes/webhooks';
import { listDeliveries } from '../../shared/app/webhooks/endpoints';

export const handler = httpHandler(routes.getWebhookDeliveries, async (req) =>
  ok(await listDeliveries(req.deps, req.principal.account.id, req.params.id, req.query.limit, req.query.before)));
