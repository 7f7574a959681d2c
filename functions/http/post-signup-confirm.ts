import { httpHandler } from '../../shared/http/handler';
import { escapeHtml, html, ok, page } from '../../shared/http/reply';
import { accountRoutes as routes } from '../routes/account';
import { ConfirmBody } from '../../shared/api/schemas';
import { formFields } from '../../shared/api/oauth-schemas';
import { confirmSignup } from '../../shared/app/signup';
import { AppError, BadRequestError } from '../../shared/domain/errors';

/**
 * The confirmation itself: JSON `{token}` answers the first API key as JSON; the page's form post answers it as a
 * page, once (a used or expired token is 410 either way).
 */
export const handler = httpHandler(routes.postSignupConfirm, async (req) => {
  const fromPage = req.rawBody !== undefined;
  let token: string;
  if (fromPage) {
    const parsed = ConfirmBody.safeParse(formFields(req.rawBody, undefined));
    if (!parsed.success) return html(page('Link not valid', '<main><h1>This link cannot be used</h1><p>The confirmation token is missing or malformed: open the link from the email again.</p></main>'), 400);
    token = parsed.data.token;
  } else {
    token = req.body.token;
  }
  try {
    const res = await confirmSignup(req.deps, token);
    if (!fromPage) return ok(res);
    return html(page('Your API key', `<main><h1>Your email is confirmed</h1><p>This is your API key for <b>${escapeHtml(res.account.email)}</b>. ` +
      `It is shown only this once: copy it now and keep it secret.</p><p><code id="api-key">${escapeHtml(res.api_key)}</code></p>` +
      `<p>Use it as <code>Authorization: Bearer &lt;key&gt;</code>. You can create more keys with <code>POST /api/keys</code>.</p></main>`));
  } catch (err) {
    if (!fromPage || !(err instanceof AppError) || err instanceof BadRequestError) throw err;
    return html(page('Link not valid', `<main><h1>This link cannot be used</h1><p>${escapeHtml(err.message)}.</p></main>`), err.status);
  }
});
