import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { approvalsRoutes as routes } from '../routes/approvals';
import { createClientLink } from '../../shared/app/approvals/approvals';

/** A single-use link for a client approver (Pro and above), for the signed-in owner only (auth: 'session'): a key or AI app never gets one. */
export const handler = httpHandler(routes.postApprovalClientLink, async (req) => ok(await createClientLink(req.deps, req.principal.account, req.params.id)));
