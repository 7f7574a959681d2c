import type { Failure, NetworkContext } from '../../ports/networks';
import { classifyStatus, jsonInit, rejected, request, type HttpResult } from '../http';

/** One GraphQL answer: the HTTP result, `data` and the errors with their extension codes. */
export type Gql = { res: HttpResult; data: Record<string, unknown> | undefined; errors: GqlError[] };
interface GqlError { message: string; code?: string }

export async function gql(apiBase: string, ctx: NetworkContext, token: string, query: string, variables?: Record<string, unknown>): Promise<Gql> {
  const res = await request(ctx, apiBase, jsonInit('POST', variables ? { query, variables } : { query }, { authorization: token }));
  const body = res.json as { data?: Record<string, unknown> | null; errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }> } | undefined;
  const errors = Array.isArray(body?.errors)
    ? body.errors.map((e) => ({ message: typeof e?.message === 'string' ? e.message : 'unknown error', code: typeof e?.extensions?.code === 'string' ? e.extensions.code : undefined }))
    : [];
  return { res, data: body?.data ?? undefined, errors };
}

/** Sorts a GraphQL answer that carries errors (or a non-2xx status) into a Failure. */
export function gqlFailure({ res, errors }: Gql, doing: string): Failure {
  const text = errors.map((e) => e.message).join('; ').slice(0, 500) || res.text.slice(0, 300) || `HTTP ${res.status}`;
  const message = `Hashnode refused ${doing}: ${text}`;
  if (res.status === 429 || errors.some((e) => e.code === 'TOO_MANY_REQUESTS' || e.code === 'RATE_LIMITED')) {
    return classifyStatus({ ...res, status: 429 }, message);
  }
  const codes = errors.map((e) => e.code);
  if (codes.includes('UNAUTHENTICATED')) return { ok: false, kind: 'reauth', error: `${message} (check the token)` };
  if (codes.includes('FORBIDDEN')) {
    if (/pro plan/i.test(text)) return rejected(`${message} (the publication needs Hashnode Pro for API publishing)`);
    return { ok: false, kind: 'reauth', error: message };
  }
  if (errors.length) {
    if (codes.every((c) => c === 'INTERNAL_SERVER_ERROR')) return { ok: false, kind: 'transient', error: message };
    return rejected(message);
  }
  return classifyStatus(res, message);
}
