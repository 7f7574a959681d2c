import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded, rejected } from '../http';
import { articleStatus } from '../article-status';
import { gql, gqlFailure } from './gql';

export const ME_QUERY = 'query Me { me { id username publications(first: 50) { edges { node { id title url } } } } }';

interface Publication { id: string; title: string; url: string }
interface Me { id: string; username: string; publications: Publication[] }

/** Hashnode's credential check: `me { id username publications … }` (the publication normalised to its id). */
export function createHashnodeVerifier({ apiBase = 'https://gql.hashnode.com' }: { apiBase?: string } = {}): NetworkVerifier {
  return { name: 'hashnode', verify: (ctx) => guarded(() => verify(apiBase, ctx)) };
}

export async function fetchMe(apiBase: string, ctx: NetworkContext, token: string): Promise<Me | Failure> {
  const answer = await gql(apiBase, ctx, token, ME_QUERY);
  const me = answer.data?.me as { id?: unknown; username?: unknown; publications?: { edges?: Array<{ node?: Partial<Publication> }> } } | null | undefined;
  if (answer.errors.length || answer.res.status !== 200 || !me) {
    if (!answer.errors.length && answer.res.status === 200) return { ok: false, kind: 'reauth', error: 'Hashnode did not recognise the token (no account returned)' };
    return gqlFailure(answer, 'the account check');
  }
  const publications = (me.publications?.edges ?? [])
    .map((e) => e.node)
    .filter((n): n is Partial<Publication> => !!n && typeof n.id === 'string')
    .map((n) => ({ id: n.id as string, title: String(n.title ?? ''), url: String(n.url ?? '') }));
  return { id: String(me.id ?? ''), username: String(me.username ?? ''), publications };
}

const hostPath = (s: string) => s.trim().replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '').toLowerCase();

/** Picks the publication named by `wanted` (id, URL or host), or the first one when `wanted` is empty. */
export function pickPublication(me: Me, wanted: string): Publication | Failure {
  if (!me.publications.length) return rejected(`Hashnode account @${me.username} has no publication (blog): create one first`);
  if (!wanted) return me.publications[0];
  const found = me.publications.find((p) => p.id === wanted) ?? me.publications.find((p) => p.url && hostPath(p.url) === hostPath(wanted));
  if (found) return found;
  const list = me.publications.map((p) => `${p.id} (${p.url || p.title})`).join(', ');
  return rejected(`publication "${wanted}" is not one of @${me.username}'s publications: ${list}`);
}

async function verify(apiBase: string, ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
  const token = (ctx.credentials.token ?? '').trim();
  if (!token) return rejected('token is missing');
  const status = articleStatus(ctx.credentials.default_status);
  if (!status) return rejected("default_status must be 'published' or 'draft'");
  const me = await fetchMe(apiBase, ctx, token);
  if ('ok' in me) return me;
  const publication = pickPublication(me, (ctx.credentials.publication ?? '').trim());
  if ('ok' in publication) return publication;
  const credentials: Record<string, string> = { ...ctx.credentials, token, publication: publication.id };
  if (ctx.credentials.default_status !== undefined) credentials.default_status = status;
  return { ok: true, handle: `@${me.username}`, credentials };
}
