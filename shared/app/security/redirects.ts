import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { BadRequestError } from '../../domain/errors';

/**
 * The redirect allow-list of an account: redirect_after may only lead to an https origin the
 * account registered with PATCH /api/me {redirect_origins}, or to the service's own origin. Anything else is 400
 * invalid_redirect, so the API's origin never becomes an open redirect.
 */

/** The canonical origin of an https origin the owner registers; a BadRequestError names what is wrong. */
export function parseOrigin(value: string): string {
  let url: URL;
  try { url = new URL(value.trim()); } catch { throw invalid(`${value.slice(0, 100)} is not a URL`); }
  if (url.protocol !== 'https:') throw invalid(`${url.origin} is not https`);
  if (url.username || url.password) throw invalid('an origin carries no user name or password');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) throw invalid(`${value.slice(0, 100)} is not an origin (no path, query or fragment)`);
  return url.origin;
}

const invalid = (why: string) => new BadRequestError(`redirect_origins: ${why}; send origins like https://app.example.com`, { code: 'invalid_redirect_origin' });

/** PATCH /api/me {redirect_origins}: replaces the account's registered origins (canonical, without duplicates). */
export async function setRedirectOrigins(deps: Pick<Deps, 'accounts'>, account: Account, origins: string[]) {
  const canonical = [...new Set(origins.map(parseOrigin))];
  await deps.accounts.setRedirectOrigins(account.id, canonical);
  return { redirect_origins: canonical };
}

/** The redirect_after to keep with an OAuth state: only an allowed origin (400 invalid_redirect otherwise). */
export function checkRedirectAfter(deps: Pick<Deps, 'settings'>, account: Pick<Account, 'redirect_origins'>, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try { url = new URL(value); } catch { throw notAllowed(); }
  const own = new URL(deps.settings.publicBaseUrl).origin;
  const allowed = url.origin === own || (url.protocol === 'https:' && !url.username && !url.password && (account.redirect_origins ?? []).includes(url.origin));
  if (!allowed) throw notAllowed();
  return url.toString();
}

const notAllowed = () => new BadRequestError(
  'redirect_after must lead to an https origin registered with PATCH /api/me {redirect_origins}, or to this service', { code: 'invalid_redirect' });
