import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded, rejected, request, type HttpResult } from '../http';
import { field, mastodonFailure, normaliseInstanceUrl, str } from './rules';

/** The instance and token of the credentials. */
export interface Account { base: string; token: string }

export const auth = (a: Account): Record<string, string> => ({ authorization: `Bearer ${a.token}`, accept: 'application/json' });

export function account(credentials: Record<string, string>): Account | Failure {
  const base = normaliseInstanceUrl(credentials.instance_url);
  if (!base) return rejected('mastodon instance_url is not a valid http(s) address, e.g. https://mastodon.social');
  const token = (credentials.access_token ?? '').trim();
  if (!token) return rejected('mastodon needs an access_token');
  return { base, token };
}

/** A 200 that is not a Mastodon JSON object, a redirect or a 404 means the address is not a Mastodon API. */
function notMastodon(res: HttpResult, base: string): Failure | undefined {
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.get('location');
    return rejected(`mastodon instance_url ${base} redirects${to ? ` to ${to}` : ''}; use the instance's own address`);
  }
  if (res.status === 404 || (res.status === 200 && !str(field(res.json, 'acct')))) {
    return rejected(`${base} does not answer as a Mastodon server (GET /api/v1/accounts/verify_credentials gave HTTP ${res.status})`);
  }
  return undefined;
}

/**
 * Mastodon's credential check: `GET /api/v1/accounts/verify_credentials`, then `GET /api/v2/instance` (the instance's
 * max_characters kept in the credentials for check).
 */
export function createMastodonVerifier(): NetworkVerifier {
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const res = await request(ctx, `${a.base}/api/v1/accounts/verify_credentials`, { headers: auth(a) });
    const odd = notMastodon(res, a.base);
    if (odd) return odd;
    if (res.status !== 200) {
      const failure = mastodonFailure(res, 'token check', ctx.now());
      return failure.kind === 'reauth' && res.status === 401
        ? { ok: false, kind: 'reauth', error: `mastodon at ${a.base} refused the access_token (${failure.error})` }
        : failure;
    }
    const acct = str(field(res.json, 'acct')) ?? '';
    const credentials: Record<string, string> = { instance_url: a.base, access_token: a.token };
    const limit = await instanceLimit(ctx, a);
    if (limit) credentials.max_characters = String(limit);
    return { ok: true, handle: acct.includes('@') ? `@${acct}` : `@${acct}@${new URL(a.base).host}`, credentials };
  }

  /** The instance's configuration.statuses.max_characters; best effort (undefined on any problem). */
  async function instanceLimit(ctx: NetworkContext, a: Account): Promise<number | undefined> {
    try {
      const res = await request(ctx, `${a.base}/api/v2/instance`, { headers: { accept: 'application/json' } });
      const max = field(field(field(res.json, 'configuration'), 'statuses'), 'max_characters');
      return res.status === 200 && typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : undefined;
    } catch {
      return undefined;
    }
  }
  return { name: 'mastodon', verify: (ctx) => guarded(() => verify(ctx)) };
}
