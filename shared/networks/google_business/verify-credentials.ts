import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded, request } from '../http';
import { field, str } from '../oauth-tokens';
import { bearer } from '../youtube/oauth';
import { gbpHosts, googleBusinessFailure, type GoogleBusinessOptions } from './oauth';

/** The account, location and token of the credentials. */
export interface Location { accountId: string; locationId: string; token: string; title?: string }

export function location(credentials: Record<string, string>): Location | Failure {
  const accountId = (credentials.account_id ?? '').trim();
  const locationId = (credentials.location_id ?? '').trim();
  const token = (credentials.access_token ?? '').trim();
  if (!accountId || !locationId || !token) return { ok: false, kind: 'reauth', error: 'google_business needs the account, the location and a token: connect Google Business Profile again' };
  return { accountId, locationId, token, title: credentials.location_title?.trim() || undefined };
}

/** Google Business Profile's credential check: `GET /v1/locations/{id}?readMask=name,title` with the token. */
export function createGoogleBusinessVerifier(opts: GoogleBusinessOptions = {}): NetworkVerifier {
  const hosts = gbpHosts(opts);
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const l = location(ctx.credentials);
    if ('ok' in l) return l;
    const res = await request(ctx, `${hosts.locations}/v1/locations/${encodeURIComponent(l.locationId)}?readMask=name,title`, { headers: bearer(l.token) });
    if (res.status !== 200) return googleBusinessFailure(res, 'location check');
    const title = str(field(res.json, 'title')) ?? l.title ?? l.locationId;
    return { ok: true, handle: title, credentials: { ...ctx.credentials, location_title: title } };
  }
  return { name: 'google_business', verify: (ctx) => guarded(() => verify(ctx)) };
}
