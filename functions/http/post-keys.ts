import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { apiKeysRoutes as routes } from '../routes/api-keys';
import { createApiKey } from '../../shared/app/api-keys';

export const handler = httpHandler(routes.postKeys, async (req) => ok(await createApiKey(req.deps, req.principal.account.id, req.body, req.principal)));
