import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { approvalsRoutes as routes } from '../routes/approvals';
import { getApproval } from '../../shared/app/approvals/approvals';

export const handler = httpHandler(routes.getApproval, async (req) => ok(await getApproval(req.deps, req.principal.account.id, req.params.id)));
