import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { apiKeysRoutes as routes } from '../routes/api-keys';
import { revokeApiKey } from '../../shared/app/api-keys';

export const handler = httpHandler(routes.deleteKey, async (req) => ok(await revokeApiKey(req.deps, req.principal.account.id, req.params.id, req.principal)));
