import { escapeHtml as e } from '../reply';
import { notice, plainPage } from './layout';

/** The sign-in pages: email form, "check your email", the link's one-button page, link errors. */

export function signInPage(opts: { returnTo?: string; error?: string; email?: string } = {}): string {
  return plainPage({
    title: 'Sign in', body: '<h1>Sign in to your dashboard</h1>' + (opts.error ? notice('error', opts.error) : '') +
      '<p>Enter the email address of your account. We email you a sign-in link; no password is needed.</p>' +
      '<form method="post" action="/dashboard/sign-in">' +
      (opts.returnTo ? `<input type="hidden" name="return" value="${e(opts.returnTo)}">` : '') +
      `<label for="email">Email address</label><input id="email" name="email" type="email" autocomplete="email" required value="${e(opts.email ?? '')}">` +
      '<div><button type="submit">Email me a sign-in link</button></div></form>',
  });
}

export function checkEmailPage(email: string): string {
  return plainPage({
    title: 'Check your email', body: '<h1>Check your email</h1>' +
      notice('ok', `If ${email} belongs to an account, a sign-in link is on its way. It works once, within 15 minutes.`) +
      '<p><a href="/dashboard/sign-in">Use another address</a></p>',
  });
}

export function signInLinkPage(token: string): string {
  return plainPage({
    title: 'Sign in', body: '<h1>Sign in to your dashboard</h1><p>Press the button to sign in on this device. The link then stops working.</p>' +
      `<form method="post" action="/dashboard/sign-in/link"><input type="hidden" name="token" value="${e(token)}">` +
      '<button type="submit">Sign in</button></form>',
  });
}

/** 404 (unknown link) and 410 (used or expired link) pages. */
export function linkProblemPage(status: number, message: string, again = '/dashboard/sign-in'): string {
  const title = status === 410 ? 'This link has expired or was used' : 'This link does not work';
  return plainPage({ title, body: `<h1>${e(title)}</h1><p role="alert">${e(message)}</p><p><a href="${e(again)}">Start again</a></p>` });
}

export function signedOutPage(): string {
  return plainPage({ title: 'Signed out', body: '<h1>You are signed out</h1><p><a href="/dashboard/sign-in">Sign in again</a></p>' });
}
