import { httpHandler } from '../../shared/http/handler';
import { routes } from '../../infra/routes';
import { completeOAuth } from '../../shared/app/oauth/flow';
import { callbackReply } from '../../shared/app/oauth/views';

/** The networks' redirect URI: the result page, the picker, or a redirect (back to the connect page / redirect_after). */
export const handler = httpHandler(routes.getOauthCallback, async (req) =>
  callbackReply(req.deps, await completeOAuth(req.deps, req.params.platform, req.query)));
