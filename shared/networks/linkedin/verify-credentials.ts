import type { NetworkVerifier } from '../../ports/networks';
import { guarded } from '../http';
import { trimBase } from '../../domain/values';
import { LINKEDIN_API_BASE, userinfo, type LinkedinOptions } from './oauth';

/** LinkedIn's credential check: `GET /v2/userinfo` with the token (the member's name; author_urn kept, else the member's). */
export function createLinkedinVerifier(opts: LinkedinOptions = {}): NetworkVerifier {
  const apiBase = trimBase(opts.apiBase ?? LINKEDIN_API_BASE);
  return {
    name: 'linkedin',
    verify: (ctx) => guarded(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      if (!token) return { ok: false as const, kind: 'reauth' as const, error: 'linkedin needs an access_token: connect LinkedIn again' };
      const me = await userinfo(ctx, apiBase, token);
      if ('ok' in me) return me;
      const author = (ctx.credentials.author_urn ?? '').trim() || me.urn;
      return { ok: true as const, handle: me.name, credentials: { ...ctx.credentials, access_token: token, author_urn: author } };
    }),
  };
}
