import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { classifyStatus, guarded, rejected, request, retryAfterSeconds, type HttpResult } from '../http';
import { normaliseStatus, type WordpressStatus } from './limits';

/** WordPress's credential check: `GET <site>/wp-json/wp/v2/users/me?context=edit` with the application password. */
export function createWordpressVerifier(): NetworkVerifier {
  return { name: 'wordpress', verify: (ctx) => guarded(() => verify(ctx)) };
}

/** The site of the credentials: its REST base, host, Basic authorization and default status. */
export interface Site { base: string; host: string; auth: string; status: WordpressStatus }

export function readCredentials(credentials: Record<string, string>): Site | Failure {
  const raw = (credentials.site_url ?? '').trim();
  const username = (credentials.username ?? '').trim();
  const password = (credentials.app_password ?? '').trim();
  if (!raw) return rejected('site_url is missing');
  if (!username) return rejected('username is missing');
  if (!password) return rejected('app_password is missing');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return rejected('site_url is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return rejected('site_url must be an http(s) URL');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/wp-json$/i, '');
  const status = normaliseStatus(credentials.default_status);
  if (!status) return rejected("default_status must be 'publish' or 'draft'");
  return {
    base: `${url.origin}${path}`,
    host: url.host,
    auth: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
    status,
  };
}

async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
  const site = readCredentials(ctx.credentials);
  if ('ok' in site) return site;
  const res = await request(ctx, `${site.base}/wp-json/wp/v2/users/me?context=edit`, {
    method: 'GET',
    headers: { authorization: site.auth, accept: 'application/json' },
  });
  if (res.status !== 200) return wpFailure(res, 'checking the account');
  const me = res.json as { id?: unknown; name?: unknown; slug?: unknown } | undefined;
  if (!me || typeof me !== 'object' || me.id === undefined) {
    return rejected(`${site.host} did not answer with a WordPress user: is site_url the WordPress site and its REST API enabled?`);
  }
  const slug = typeof me.slug === 'string' && me.slug ? me.slug : String(me.name ?? me.id);
  const credentials: Record<string, string> = {
    ...ctx.credentials,
    site_url: site.base,
    username: ctx.credentials.username.trim(),
    app_password: ctx.credentials.app_password.trim(),
  };
  if (ctx.credentials.default_status !== undefined) credentials.default_status = site.status;
  return { ok: true, handle: `${slug}@${site.host}`, credentials };
}

/** Sorts a WordPress error answer ({code, message, data:{status}}) into a Failure. */
export function wpFailure(res: HttpResult, doing: string, media = false): Failure {
  const body = res.json as { code?: unknown; message?: unknown } | undefined;
  const code = typeof body?.code === 'string' ? body.code : undefined;
  const text = typeof body?.message === 'string' ? stripTags(body.message) : undefined;
  const detail = code ? `${code}${text ? `: ${text}` : ''}` : `HTTP ${res.status}`;
  const message = `WordPress refused ${doing} (${detail})`;
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.get('location');
    return rejected(`WordPress redirected ${doing}${to ? ` to ${to}` : ''}: set site_url to the address the site answers on`);
  }
  if (res.status === 429) return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, res.at) ?? 60, error: message };
  if (res.status === 401 || res.status === 403) {
    const hint = code === 'rest_cannot_create' || code === 'rest_cannot_publish' || code === 'rest_cannot_create_post'
      ? ': the user needs the Author role or higher'
      : code ? ': check username and app_password' : ': check username and app_password (some hosts strip the Authorization header)';
    return { ok: false, kind: 'reauth', error: `${message}${hint}` };
  }
  if (media && (res.status === 413 || code?.startsWith('rest_upload_'))) return rejected(message, 'bad_media');
  if (res.status >= 200 && res.status < 300 && body === undefined) {
    return rejected(`WordPress answered ${doing} with a non-JSON page: is the REST API enabled at site_url?`);
  }
  if (res.status === 404 && (code === 'rest_no_route' || code === undefined)) {
    return rejected(`WordPress REST API not found at site_url while ${doing} (${detail})`);
  }
  return classifyStatus(res, message);
}

function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, '').slice(0, 300);
}
