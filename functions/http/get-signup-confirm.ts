import { httpHandler } from '../../shared/http/handler';
import { escapeHtml, html, ok, page } from '../../shared/http/reply';
import { routes } from '../../infra/routes';
import { confirmSignup } from '../../shared/app/signup';
import { AppError } from '../../shared/domain/errors';

const wantsJson = (accept: string | undefined) => /application\/json/i.test(accept ?? '') && !/text\/html/i.test(accept ?? '');

/** Opening the emailed link: the first API key, once, as a page (or JSON for Accept: application/json). */
export const handler = httpHandler(routes.getSignupConfirm, async (req) => {
  const json = wantsJson(req.headers.accept);
  try {
    const res = await confirmSignup(req.deps, req.query.token);
    if (json) return ok(res);
    return html(page('Your API key', `<h1>Your email is confirmed</h1><p>This is your API key for <b>${escapeHtml(res.account.email)}</b>. ` +
      `It is shown only this once: copy it now and keep it secret.</p><p><code id="api-key">${escapeHtml(res.api_key)}</code></p>` +
      `<p>Use it as <code>Authorization: Bearer &lt;key&gt;</code>. You can create more keys with <code>POST /api/keys</code>.</p>`));
  } catch (err) {
    if (json || !(err instanceof AppError)) throw err;
    return html(page('Link not valid', `<h1>This link cannot be used</h1><p>${escapeHtml(err.message)}.</p>`), err.status);
  }
});
