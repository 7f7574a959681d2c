import { httpHandler } from '../../shared/http/handler';
import { escapeHtml, html, page } from '../../shared/http/reply';
import { accountRoutes as routes } from '../routes/account';
import { BadRequestError } from '../../shared/domain/errors';

const wantsJson = (accept: string | undefined) => /application\/json/i.test(accept ?? '') && !/text\/html/i.test(accept ?? '');

/**
 * Opening the emailed link: a page with one button that POSTs the token. Opening it spends nothing, so a mail
 * scanner that follows links cannot use the single-use link up; JSON clients are told to POST.
 */
export const handler = httpHandler(routes.getSignupConfirm, async (req) => {
  if (wantsJson(req.headers.accept)) {
    throw new BadRequestError('Opening the link confirms nothing: POST /api/signup/confirm with {"token": "<the token of the link>"}', { code: 'confirm_with_post' });
  }
  return html(page('Confirm your email', `<main><h1>Confirm your email</h1>` +
    `<p>Press the button to confirm your address and see your first API key. It is shown only once.</p>` +
    `<form method="post" action="/api/signup/confirm"><input type="hidden" name="token" value="${escapeHtml(req.query.token)}">` +
    `<button type="submit">Confirm and show my API key</button></form></main>`));
});
