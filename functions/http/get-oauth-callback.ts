import { httpHandler } from '../../shared/http/handler';
import { routes } from '../../infra/routes';
import { completeOAuth } from '../../shared/app/oauth/flow';
import { callbackReply } from '../../shared/app/oauth/views';
import { browserNonceOf, clearBrowserCookie } from '../../shared/app/oauth/browser';

/** The networks' redirect URI: the result page, the picker, or a redirect (back to the connect page / redirect_after). */
export const handler = httpHandler(routes.getOauthCallback, async (req) => {
  const { platform } = req.params;
  const nonce = browserNonceOf(platform, req.event.cookies, req.headers.cookie);
  const reply = callbackReply(req.deps, await completeOAuth(req.deps, platform, req.query, nonce));
  return nonce ? { ...reply, cookies: [...(reply.cookies ?? []), clearBrowserCookie(req.deps, platform)] } : reply;
});
