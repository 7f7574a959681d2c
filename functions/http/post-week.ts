import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { aiDraftsRoutes as routes } from '../routes/ai-drafts';
import { planWeek } from '../../shared/app/ai/week';

export const handler = httpHandler(routes.postWeek, async (req) =>
  ok(await planWeek(req.deps, req.principal.account, req.body, req.principal.actor)));
