import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded, rejected, request } from '../http';
import { trimBase } from '../../domain/values';
import { articleStatus } from '../article-status';
import { devtoFailure } from './failure';

const ACCEPT = 'application/vnd.forem.api-v1+json';

/** The headers of every dev.to API call with this key. */
export function headers(apiKey: string): Record<string, string> {
  return { 'api-key': apiKey, accept: ACCEPT };
}

/** dev.to's credential check: `GET <apiBase>/api/users/me` with the api-key (→ @username); default_status checked. */
export function createDevtoVerifier({ apiBase = 'https://dev.to' }: { apiBase?: string } = {}): NetworkVerifier {
  const base = trimBase(apiBase);
  return { name: 'devto', verify: (ctx) => guarded(() => verify(base, ctx)) };
}

async function verify(base: string, ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
  const apiKey = (ctx.credentials.api_key ?? '').trim();
  if (!apiKey) return rejected('api_key is missing');
  const status = articleStatus(ctx.credentials.default_status);
  if (!status) return rejected("default_status must be 'published' or 'draft'");
  const res = await request(ctx, `${base}/api/users/me`, { method: 'GET', headers: headers(apiKey) });
  if (res.status !== 200) return devtoFailure(res, 'checking the api_key');
  const username = (res.json as { username?: unknown } | undefined)?.username;
  if (typeof username !== 'string' || !username) return { ok: false, kind: 'transient', error: 'dev.to answered without a username' };
  const credentials: Record<string, string> = { ...ctx.credentials, api_key: apiKey };
  if (ctx.credentials.default_status !== undefined) credentials.default_status = status;
  return { ok: true, handle: `@${username}`, credentials };
}
