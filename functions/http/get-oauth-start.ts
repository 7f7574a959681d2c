import { httpHandler } from '../../shared/http/handler';
import { routes } from '../../infra/routes';
import { AppError } from '../../shared/domain/errors';
import { beginOAuth } from '../../shared/app/oauth/flow';
import { browserCookie } from '../../shared/app/oauth/browser';
import { hostedReply, seeOther } from '../../shared/app/connect-link/views';
import { escapeHtml as e } from '../../shared/http/reply';

/** The sign-in link of POST /api/oauth/{platform}/url: sets the browser's nonce cookie and sends it to the network. */
export const handler = httpHandler(routes.getOauthStart, async (req) => {
  try {
    const { location, nonce, platform } = await beginOAuth(req.deps, req.params.platform, req.query.token);
    return { ...seeOther(location), cookies: [browserCookie(req.deps, platform, nonce)] };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return hostedReply(err.status, 'Sign-in link not valid', `<h1>This sign-in link cannot be used</h1><p role="alert">${e(err.message)}</p>` +
      `<p class="hint">Code: <code>${e(err.code)}</code>.</p>`);
  }
});
