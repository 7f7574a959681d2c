import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { routes } from '../../infra/routes';
import { validatePost } from '../../shared/app/publish/request';
import { publishPost } from '../../shared/app/publish/create-post';

export const handler = httpHandler(routes.postPost, async (req) =>
  ok(await publishPost(req.deps, req.principal.account, validatePost(req.body), { source: 'api', wait: true, actor: req.principal.actor })));
