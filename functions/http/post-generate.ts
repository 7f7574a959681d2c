import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { aiDraftsRoutes as routes } from '../routes/ai-drafts';
import { generateDrafts } from '../../shared/app/ai/generate';

export const handler = httpHandler(routes.postGenerate, async (req) => ok(await generateDrafts(req.deps, req.principal.account, req.body)));
