import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, rejected, request } from '../http';
import { formInit } from '../oauth-tokens';
import { checkReddit, redditFailure, submission, submitErrors } from './rules';

/**
 * Deleting and editing a submission (reddit.com/dev/api: `POST /api/del` "Delete a Link or Comment", `POST
 * /api/editusertext` "Edit the body text of a comment or self-post", both under the `edit` OAuth scope):
 * delete → `POST /api/del {id: t3_…}` (200 `{}`; Reddit answers the same for a post already deleted); edit →
 * `POST /api/editusertext {api_type: json, thing_id, text}` with the self text the new content makes (as a publish
 * would split it: title line / body). Only self posts have editable text: a content that would be a link post is
 * refused without a call, and Reddit titles can never change (the title stays as published). Accounts connected
 * before the `edit` scope was asked for answer 403 → reauth (connect Reddit again).
 */
export function createRedditManagement(apiBase: string, userAgent: string): Required<PostManagement> {
  const headers = (ctx: NetworkContext) => {
    const t = (ctx.credentials.access_token ?? '').trim();
    return t ? { authorization: `Bearer ${t}`, 'user-agent': userAgent } : undefined;
  };
  const noToken: ChangeOutcome = { ok: false, kind: 'reauth', error: 'reddit credentials have no access_token; connect Reddit again' };
  const badId = (ref: PublishedRef) => !/^t3_[a-z0-9]+$/i.test(ref.id);

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noToken;
    if (badId(ref)) return rejected(`reddit post ids are t3_ fullnames; got ${ref.id.slice(0, 40)}`);
    const res = await request(ctx, `${apiBase}/api/del`, formInit('POST', { id: ref.id }, h));
    if (res.status === 200) return { ok: true };
    return redditFailure(res, 'delete', ctx.now(), true);
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noToken;
    if (badId(ref)) return rejected(`reddit post ids are t3_ fullnames; got ${ref.id.slice(0, 40)}`);
    const shaped = { ...content, subreddit: content.subreddit ?? 'placeholder' };
    const invalid = checkReddit(shaped);
    if (invalid) return invalid;
    const sub = submission(shaped);
    if ('ok' in sub) return sub;
    if (sub.kind !== 'self') return rejected('reddit can only edit the text of a self (text) post; a link post\'s URL cannot change (delete it and post again)');
    const res = await request(ctx, `${apiBase}/api/editusertext`, formInit('POST', { api_type: 'json', thing_id: ref.id, text: sub.text ?? '' }, h));
    if (res.status !== 200) return redditFailure(res, 'edit', ctx.now(), true);
    const errors = submitErrors(res.json);
    if (errors.length) {
      const text = errors.map(([code, msg]) => `${code}${msg ? `: ${msg}` : ''}`).join('; ').slice(0, 300);
      return rejected(`reddit edit failed: ${text}${errors.some(([code]) => code === 'NOT_AUTHOR') ? ' (the post was deleted, is a link post, or belongs to another account)' : ''}`);
    }
    return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}
