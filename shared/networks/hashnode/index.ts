import { guarded, rejected } from '../http';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, Published } from '../../ports/networks';
import { articleStatus } from '../article-status';
import { checkHashnode, DRAFT_MUTATION, HASHNODE_MAX_BODY_BYTES, OBJECT_ID, PUBLISH_MUTATION, requestBody, type CoverField } from './limits';
import { hashnodeReadBack } from './read-back';
import { hashnodeMetrics } from './analytics';
import { gql, gqlFailure, type Gql } from './gql';
import { createHashnodeManagement } from './manage';
import { createHashnodeVerifier, fetchMe, ME_QUERY, pickPublication } from './verify-credentials';

export { DRAFT_MUTATION, HASHNODE_MAX_BODY_BYTES, PUBLISH_MUTATION };
export { ME_QUERY };

export interface HashnodeOptions { apiBase?: string }

/**
 * Hashnode (GraphQL).
 *
 * Credentials: token (Personal Access Token, sent as `Authorization: <token>`, no Bearer), optional publication
 * (a publication id, or its URL/host; verify normalises it to the id, and picks the account's first publication when
 * absent), optional default_status 'published' (default) | 'draft' ('publish' accepted).
 *
 * Endpoint: POST <apiBase> with {query, variables}. verify: `me { id username publications(first: 50) … }`.
 * publish: `publishPost(input: {publicationId, title, contentMarkdown, tags: [], coverImageOptions?: {coverImageURL}})
 * { post { id slug url } }`; with default_status 'draft': `createDraft(input: {…same…}) { draft { id } }`, returned as
 * ok/status 'published' with url https://hashnode.com/draft/<id>. Hashnode's newer schema names the cover
 * `coverImage: String` on PublishPostInput: when the server refuses `coverImageOptions` as an unknown input field
 * (a validation error, so nothing was created), the post is sent once more with `coverImage`.
 *
 * Content: content.title is the title; when absent, the first line of the text (leading markdown `#` removed, at
 * most 100 characters). The text is the markdown body, sent whole. One image becomes the cover (by URL); video is
 * refused (bad_media).
 *
 * Failures: GraphQL errors arrive with HTTP 200 (or 400) in `errors[]`: UNAUTHENTICATED → reauth; FORBIDDEN → reauth,
 * except "does not have an active Pro plan" → rejected (a new sign-in does not help); BAD_USER_INPUT,
 * GRAPHQL_VALIDATION_FAILED, NOT_FOUND and other codes → rejected; INTERNAL_SERVER_ERROR → transient. HTTP 429 →
 * rate_limited (Retry-After, else 60 s); other HTTP statuses by the shared rules (401/403 reauth, 5xx transient).
 */
export function createHashnodeAdapter({ apiBase = 'https://gql.hashnode.com' }: HashnodeOptions = {}): NetworkAdapter {
  return {
    name: 'hashnode',
    verify: createHashnodeVerifier({ apiBase }).verify,
    check: checkHashnode,
    publish: (content, ctx) => guarded(() => publish(apiBase, content, ctx)),
    readBack: hashnodeReadBack(apiBase),
    metrics: hashnodeMetrics(apiBase),
    ...createHashnodeManagement(apiBase),
  };
}

async function publish(apiBase: string, content: PublishContent, ctx: NetworkContext): Promise<Published | Failure> {
  const token = (ctx.credentials.token ?? '').trim();
  if (!token) return { ok: false, kind: 'reauth', error: 'token is missing' };
  const status = articleStatus(ctx.credentials.default_status);
  if (!status) return rejected("default_status must be 'published' or 'draft'");
  const problem = checkHashnode(content, ctx.credentials);
  if (problem) return problem;

  let publicationId = (ctx.credentials.publication ?? '').trim();
  if (!OBJECT_ID.test(publicationId)) {
    const me = await fetchMe(apiBase, ctx, token);
    if ('ok' in me) return me;
    const publication = pickPublication(me, publicationId);
    if ('ok' in publication) return publication;
    publicationId = publication.id;
  }

  const draft = status === 'draft';
  const send = (cover: CoverField) => {
    const { query, variables } = requestBody(content, publicationId, draft, cover);
    return gql(apiBase, ctx, token, query, variables);
  };
  let answer = await send('coverImageOptions');
  if (!draft && content.media.length && !answer.data?.publishPost && answer.errors.some((e) => /coverImageOptions/.test(e.message))) {
    answer = await send('coverImage');
  }
  if (draft) {
    const id = (answer.data?.createDraft as { draft?: { id?: unknown } } | null | undefined)?.draft?.id;
    if (typeof id === 'string' && id) return { ok: true, status: 'published', id, url: `https://hashnode.com/draft/${id}` };
    return noPost(answer, 'the draft');
  }
  const post = (answer.data?.publishPost as { post?: { id?: unknown; url?: unknown } } | null | undefined)?.post;
  if (typeof post?.id === 'string' && typeof post.url === 'string') return { ok: true, status: 'published', id: post.id, url: post.url };
  return noPost(answer, 'the post');
}

function noPost(answer: Gql, what: string): Failure {
  if (answer.errors.length || answer.res.status !== 200) return gqlFailure(answer, what);
  return { ok: false, kind: 'transient', error: `Hashnode answered without ${what}` };
}
