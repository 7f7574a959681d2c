import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded } from '../http';
import { field, str } from '../oauth-tokens';
import { graphFailure } from '../facebook/graph';
import { trimBase } from '../../domain/values';
import { THREADS_API_BASE, threadsGet, type ThreadsOptions } from './oauth';
import { threadsRefine } from './rules';

/** The Threads user id, token and username of the credentials. */
export interface Account { userId: string; token: string; username?: string }

export function account(credentials: Record<string, string>): Account | Failure {
  const userId = (credentials.threads_user_id ?? '').trim();
  const token = (credentials.access_token ?? '').trim();
  if (!userId || !token) return { ok: false, kind: 'reauth', error: 'threads needs the threads_user_id and a token: connect Threads again' };
  return { userId, token, username: credentials.username?.trim() || undefined };
}

/** Threads' credential check: `GET /{threads_user_id}?fields=id,username` with the token. */
export function createThreadsVerifier(opts: ThreadsOptions = {}): NetworkVerifier {
  const api = trimBase(opts.apiBase ?? THREADS_API_BASE);
  const fail = (res: Parameters<typeof graphFailure>[0], what: string, ctx: NetworkContext) => graphFailure(res, `threads ${what}`, ctx.now(), threadsRefine);
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const res = await threadsGet(ctx, api, `/${encodeURIComponent(a.userId)}`, a.token, { fields: 'id,username' });
    if (res.status !== 200) return fail(res, 'profile check', ctx);
    const username = str(field(res.json, 'username')) ?? a.username;
    return { ok: true, handle: username ? `@${username}` : a.userId, credentials: { ...ctx.credentials, ...(username ? { username } : {}) } };
  }
  return { name: 'threads', verify: (ctx) => guarded(() => verify(ctx)) };
}
