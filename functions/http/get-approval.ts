import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { routes } from '../../infra/routes';
import { getApproval } from '../../shared/app/approvals/approvals';

export const handler = httpHandler(routes.getApproval, async (req) => ok(await getApproval(req.deps, req.principal.account.id, req.params.id)));
