import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { apiKeysRoutes as routes } from '../routes/api-keys';
import { listApiKeys } from '../../shared/app/api-keys';

export const handler = httpHandler(routes.getKeys, async (req) => ok({ keys: await listApiKeys(req.deps, req.principal.account.id) }));
