import { httpHandler } from '../../shared/http/handler';
import { connectionsRoutes as routes } from '../routes/connections';
import { AppError } from '../../shared/domain/errors';
import { beginOAuth, completeOAuth } from '../../shared/app/oauth/flow';
import { callbackReply } from '../../shared/http/pages/oauth-result';
import { browserCookie, browserNonceOf, clearBrowserCookie } from '../../shared/app/oauth/browser';
import { hostedReply, seeOther } from '../../shared/http/pages/connect-page';
import { escapeHtml as e } from '../../shared/http/reply';

/**
 * The networks' redirect URI: the result page, the picker, or a redirect (back to the connect page / redirect_after).
 * With `?start=<token>` it is the sign-in link of POST /api/oauth/{platform}/url instead: it sets the browser's nonce
 * cookie and sends the browser on to the network.
 */
export const handler = httpHandler(routes.getOauthCallback, async (req) => {
  const { platform } = req.params;
  if (req.query.start !== undefined) {
    try {
      const begun = await beginOAuth(req.deps, platform, req.query.start);
      return { ...seeOther(begun.location), cookies: [browserCookie(req.deps, begun.platform, begun.nonce)] };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return hostedReply(err.status, 'Sign-in link not valid', `<h1>This sign-in link cannot be used</h1><p role="alert">${e(err.message)}</p>` +
        `<p class="hint">Code: <code>${e(err.code)}</code>.</p>`);
    }
  }
  const nonce = browserNonceOf(platform, req.event.cookies, req.headers.cookie);
  const reply = callbackReply(req.deps, await completeOAuth(req.deps, platform, req.query, nonce));
  return nonce ? { ...reply, cookies: [...(reply.cookies ?? []), clearBrowserCookie(req.deps, platform)] } : reply;
});
