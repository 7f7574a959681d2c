import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded } from '../http';
import { field, str } from '../oauth-tokens';
import { FACEBOOK_API_BASE, graphFailure, graphGet } from './graph';
import { trimBase } from '../../domain/values';
import type { FacebookOptions } from './oauth';

/** The Page and its token, from the credentials. */
export interface Page { id: string; token: string }

export function page(credentials: Record<string, string>): Page | Failure {
  const id = (credentials.page_id ?? '').trim();
  const token = (credentials.page_access_token ?? '').trim();
  if (!id || !token) return { ok: false, kind: 'reauth', error: 'facebook needs a page_id and its page_access_token: connect Facebook again and pick a Page' };
  return { id, token };
}

/** Facebook's credential check: `GET /{page_id}?fields=id,name` with the Page token. */
export function createFacebookVerifier(opts: FacebookOptions = {}): NetworkVerifier {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const p = page(ctx.credentials);
    if ('ok' in p) return p;
    const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(p.id)}`, p.token, { fields: 'id,name' });
    if (res.status !== 200) return graphFailure(res, 'facebook page check', ctx.now());
    const name = str(field(res.json, 'name')) ?? p.id;
    return { ok: true, handle: name, credentials: { ...ctx.credentials, page_id: p.id, page_name: name, page_access_token: p.token } };
  }
  return { name: 'facebook', verify: (ctx) => guarded(() => verify(ctx)) };
}
