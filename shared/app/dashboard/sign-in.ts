import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { GoneError, NotFoundError } from '../../domain/errors';
import { randomToken } from '../../domain/ids';
import { sha256Hex } from '../../domain/api-key';
import { hit, perHour } from '../rate-limit';

/** How long a dashboard session lasts (decisions.md: 7 days). */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** How long an emailed sign-in link works. */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;
const SIGN_IN_TOKEN = 'signin';

/** The signed-in owner on a dashboard route: the account, the session (by hash) and its CSRF token. */
export interface SessionPrincipal {
  account: Account;
  sessionHash: string;
  /** Derived from the session id (never stored): only the holder of the cookie can know it. */
  csrf: string;
  expiresAt: number;
}

export const csrfTokenFor = (sessionId: string) => sha256Hex(`csrf#${sessionId}`);

/** Only a local path may be a return target (never another origin, never a scheme-relative `//host`). */
export function safeReturnPath(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return '/dashboard';
  return value.slice(0, 500);
}

/**
 * Emails a sign-in link (magic link) to an account's owner.
 * 1. Rate limits: 5 an hour per IP, 3 an hour per email (429 beyond).
 * 2. An unknown address gets the same answer and no email.
 * 3. The link's token is stored hashed for 15 minutes with the return path; opening it shows a page whose button
 *    POSTs, so a mail scanner following the GET link does not use it up.
 */
export async function requestSignInLink(deps: Pick<Deps, 'accounts' | 'clock' | 'counters' | 'mailer' | 'settings' | 'tokens'>, input: { email: string; ip: string; returnTo?: string }) {
  const email = input.email.trim().toLowerCase();
  await hit(deps, `signin-ip#${input.ip}`, perHour(5));
  await hit(deps, `signin-email#${email}`, perHour(3));
  const accountId = await deps.accounts.findIdByEmail(email);
  if (!accountId) return { email, emailed: true };
  const token = randomToken();
  const now = deps.clock.now();
  await deps.tokens.put({
    kind: SIGN_IN_TOKEN, hash: sha256Hex(token), account_id: accountId, data: { return_to: safeReturnPath(input.returnTo) },
    expires_at: Math.floor(now / 1000) + SIGN_IN_LINK_TTL_SECONDS,
  });
  const link = `${deps.settings.publicBaseUrl}/dashboard/sign-in/link?token=${token}`;
  await deps.mailer.send({
    to: email,
    subject: 'Your dashboard sign-in link',
    text: `Open this link within 15 minutes and press "Sign in" to open your dashboard (it works once):\n${link}\n\nIf you did not ask for this, ignore this email.`,
    html: `<p><a href="${link}">Open this link</a> within 15 minutes and press “Sign in” to open your dashboard. It works once.</p>` +
      '<p>If you did not ask for this, ignore this email.</p>',
    links: [link],
  });
  return { email, emailed: true };
}

/** Checks an emailed link without using it (the GET page): 404 unknown, 410 used or expired. */
export async function checkSignInLink(deps: Pick<Deps, 'tokens' | 'clock'>, token: string) {
  const found = await deps.tokens.peek(SIGN_IN_TOKEN, sha256Hex(token));
  if (!found) throw new NotFoundError('This sign-in link is not valid: ask for a new one', { code: 'link_not_found' });
  if (found.used_at !== undefined) throw new GoneError('This sign-in link was used already: ask for a new one', { code: 'link_used' });
  if (found.expires_at * 1000 <= deps.clock.now()) throw new GoneError('This sign-in link has expired: ask for a new one', { code: 'link_expired' });
  return { returnTo: found.data.return_to ?? '/dashboard' };
}

/**
 * The "Sign in" button: uses the link once (conditional write), marks the mailbox verified, and starts a session.
 * Answers the session id for the cookie (only its hash is stored) and where to go next.
 */
export async function completeSignIn(deps: Pick<Deps, 'tokens' | 'clock' | 'accounts' | 'sessions'>, token: string) {
  const res = await deps.tokens.consume(SIGN_IN_TOKEN, sha256Hex(token), deps.clock.now());
  if (!res.ok) {
    if (res.reason === 'missing') throw new NotFoundError('This sign-in link is not valid: ask for a new one', { code: 'link_not_found' });
    throw new GoneError(res.reason === 'used' ? 'This sign-in link was used already: ask for a new one' : 'This sign-in link has expired: ask for a new one', { code: `link_${res.reason}` });
  }
  await deps.accounts.markVerified(res.token.account_id);
  const session = await startSession(deps, res.token.account_id);
  return { ...session, returnTo: safeReturnPath(res.token.data.return_to) };
}

/** Starts a session for an account: a random id whose SHA-256 is stored with a 7-day expiry. */
export async function startSession(deps: Pick<Deps, 'clock' | 'sessions'>, accountId: string) {
  const sessionId = randomToken();
  const now = deps.clock.now();
  const expiresAt = Math.floor(now / 1000) + SESSION_TTL_SECONDS;
  await deps.sessions.create({ hash: sha256Hex(sessionId), account_id: accountId, created_at: new Date(now).toISOString(), expires_at: expiresAt });
  return { sessionId, expiresAt };
}

/** The principal of a session cookie's value; undefined when the session is unknown, ended or expired. */
export async function sessionPrincipal(deps: Pick<Deps, 'sessions' | 'accounts' | 'clock'>, sessionId: string): Promise<SessionPrincipal | undefined> {
  const hash = sha256Hex(sessionId);
  const session = await deps.sessions.get(hash, deps.clock.now());
  if (!session) return undefined;
  const account = await deps.accounts.get(session.account_id);
  if (!account) return undefined;
  return { account, sessionHash: hash, csrf: csrfTokenFor(sessionId), expiresAt: session.expires_at };
}

/** Sign-out: the session ends at once. */
export async function signOut(deps: Pick<Deps, 'sessions'>, principal: SessionPrincipal) {
  await deps.sessions.revoke(principal.sessionHash);
}
