import type { Deps } from './deps';
import type { Account } from '../ports/store';
import { GoneError } from '../domain/errors';
import { newId, randomToken } from '../domain/ids';
import { sha256Hex } from '../domain/api-key';
import { hit, perDay, perHour } from './rate-limit';
import { createApiKey } from './api-keys';
import { DEFAULT_SLOTS, DEFAULT_TIMEZONE } from './brands';

export const SIGNUP_TOKEN_TTL_SECONDS = 24 * 3600;
const SIGNUP_TOKEN = 'signup';

/**
 * Signup (spec §5.4, decisions.md): never returns a credential and answers the same for new and known emails.
 * 1. Rate limits: 5 an hour per IP, 3 a day per email.
 * 2. Claim the email for a new account id (conditional write: one account per email, even under a race);
 *    a lost race or a known email uses the existing account.
 * 3. Make sure the account and its "Default" brand exist (idempotent, so a crash between writes heals on retry).
 * 4. Store a one-time confirmation token (hash only, 24 h) and email its link.
 */
export async function signup(deps: Pick<Deps, 'accounts' | 'brands' | 'clock' | 'counters' | 'mailer' | 'settings' | 'tokens'>, input: { email: string; ip: string }) {
  const email = input.email.trim().toLowerCase();
  await hit(deps, `signup-ip#${input.ip}`, perHour(5));
  await hit(deps, `signup-email#${email}`, perDay(3));

  const now = deps.clock.now();
  const candidate = newId('acc', now);
  const claim = await deps.accounts.claimEmail(email, candidate);
  const accountId = claim.claimed ? candidate : claim.accountId;
  const account = await ensureAccount(deps, accountId, email, now);

  const token = randomToken();
  await deps.tokens.put({
    kind: SIGNUP_TOKEN, hash: sha256Hex(token), account_id: account.id, data: {},
    expires_at: Math.floor(now / 1000) + SIGNUP_TOKEN_TTL_SECONDS,
  });
  const link = `${deps.settings.publicBaseUrl}/api/signup/confirm?token=${token}`;
  const first = !account.verified;
  await deps.mailer.send({
    to: email,
    subject: first ? 'Confirm your email to get your API key' : 'Your sign-in link: get a new API key',
    text: `${first ? 'Welcome!' : 'Someone (hopefully you) asked to sign up again with this address.'}\n\n` +
      `Open this link within 24 hours to ${first ? 'confirm your email and see your API key' : 'get a new API key'} (it works once):\n${link}\n\n` +
      'If you did not ask for this, ignore this email.',
    html: `<p>${first ? 'Welcome!' : 'Someone (hopefully you) asked to sign up again with this address.'}</p>` +
      `<p><a href="${link}">Open this link</a> within 24 hours to ${first ? 'confirm your email and see your API key' : 'get a new API key'}. It works once.</p>` +
      '<p>If you did not ask for this, ignore this email.</p>',
    links: [link],
  });
  return { email, pending_verification: true, emailed: true };
}

async function ensureAccount(deps: Pick<Deps, 'accounts' | 'brands'>, accountId: string, email: string, now: number): Promise<Account> {
  const existing = await deps.accounts.get(accountId);
  if (existing) return existing;
  const created_at = new Date(now).toISOString();
  // The Default brand's id is derived from the account id, so racing signups write the same brand item, and it is
  // written before the account, so an account never exists without it.
  await deps.brands.create({ id: defaultBrandId(accountId), account_id: accountId, name: 'Default', timezone: DEFAULT_TIMEZONE, slots: DEFAULT_SLOTS, created_at });
  await deps.accounts.createAccount({ id: accountId, email, plan: 'free', verified: false, created_at, brand_count: 1 });
  return (await deps.accounts.get(accountId))!;
}

export function defaultBrandId(accountId: string): string {
  return `brd_${accountId.slice('acc_'.length)}`;
}

/**
 * Opens a confirmation link: consumes the token once (410 when used or expired), verifies the account and issues
 * a new API key, shown once.
 */
export async function confirmSignup(deps: Pick<Deps, 'accounts' | 'clock' | 'guardrails' | 'keys' | 'tokens'>, token: string) {
  const res = await deps.tokens.consume(SIGNUP_TOKEN, sha256Hex(token), deps.clock.now());
  if (!res.ok) {
    throw new GoneError(res.reason === 'used' ? 'This link was used already: sign up again to get a new link' : 'This link is not valid or has expired: sign up again to get a new link', { code: 'link_expired' });
  }
  const accountId = res.token.account_id;
  await deps.accounts.markVerified(accountId);
  const account = (await deps.accounts.get(accountId))!;
  const key = await createApiKey(deps, accountId, { name: 'First key' });
  return { api_key: key.api_key, key_id: key.id, account: { id: account.id, email: account.email, plan: account.plan } };
}
