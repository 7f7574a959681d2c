import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, rejected } from '../http';
import { articleTitle } from '../article-title';
import { checkHashnode, OBJECT_ID } from './limits';
import { gql, gqlFailure } from './gql';

export const REMOVE_MUTATION = 'mutation RemovePost($input: RemovePostInput!) { removePost(input: $input) { post { id } } }';
export const UPDATE_MUTATION = 'mutation UpdatePost($input: UpdatePostInput!) { updatePost(input: $input) { post { id url } } }';

/**
 * Deleting and editing a published post (Hashnode GraphQL API at gql.hashnode.com, apidocs.hashnode.com; mutations
 * `removePost(input: RemovePostInput {id})` and `updatePost(input: UpdatePostInput {id, title, contentMarkdown})`, as
 * the playground's schema lists them): a post already gone (NOT_FOUND) counts as deleted; an edit keeps the tags,
 * cover and slug. Same `Authorization: <token>` header and error sorting as a publish (UNAUTHENTICATED → reauth).
 */
export function createHashnodeManagement(apiBase: string): Required<PostManagement> {
  const token = (ctx: NetworkContext) => (ctx.credentials.token ?? '').trim();
  const noToken: ChangeOutcome = { ok: false, kind: 'reauth', error: 'the Hashnode token is missing: connect Hashnode again' };
  const gone = (codes: Array<string | undefined>, text: string) => codes.includes('NOT_FOUND') || /not found|does not exist/i.test(text);

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const t = token(ctx);
    if (!t) return noToken;
    if (!OBJECT_ID.test(ref.id)) return rejected(`Hashnode post ids are 24-character object ids; got ${ref.id.slice(0, 40)}`);
    const answer = await gql(apiBase, ctx, t, REMOVE_MUTATION, { input: { id: ref.id } });
    if (answer.res.status === 200 && answer.errors.length === 0 && answer.data?.removePost) return { ok: true };
    if (gone(answer.errors.map((e) => e.code), answer.errors.map((e) => e.message).join(' '))) return { ok: true };
    return gqlFailure(answer, 'removing the post');
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const t = token(ctx);
    if (!t) return noToken;
    if (!OBJECT_ID.test(ref.id)) return rejected(`Hashnode post ids are 24-character object ids; got ${ref.id.slice(0, 40)}`);
    const problem = checkHashnode({ ...content, media: [] }, ctx.credentials);
    if (problem) return problem;
    const answer = await gql(apiBase, ctx, t, UPDATE_MUTATION, { input: { id: ref.id, title: articleTitle(content), contentMarkdown: content.text } });
    const post = (answer.data?.updatePost as { post?: { url?: unknown } } | null | undefined)?.post;
    if (answer.res.status === 200 && answer.errors.length === 0 && post) return { ok: true, ...(typeof post.url === 'string' ? { url: post.url } : ref.url ? { url: ref.url } : {}) };
    if (gone(answer.errors.map((e) => e.code), answer.errors.map((e) => e.message).join(' '))) return rejected('Hashnode no longer has this post (it was deleted on the network)');
    return gqlFailure(answer, 'updating the post');
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}
