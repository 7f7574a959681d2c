import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { approvalsRoutes as routes } from '../routes/approvals';
import { listApprovals } from '../../shared/app/approvals/approvals';

export const handler = httpHandler(routes.getApprovals, async (req) => ok(await listApprovals(req.deps, req.principal.account.id, req.query)));
