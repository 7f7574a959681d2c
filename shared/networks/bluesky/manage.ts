import type { ChangeOutcome, NetworkContext, PostManagement, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { openSession, sessionKey, xrpcFailure, type SessionCache } from './xrpc';

const POST_URI = /^at:\/\/(did:[a-z]+:[A-Za-z0-9._:%-]+)\/app\.bsky\.feed\.post\/([A-Za-z0-9._:~-]{1,512})$/;

/**
 * Deleting a published post (Bluesky has no edit): `com.atproto.repo.deleteRecord {repo, collection:
 * app.bsky.feed.post, rkey}` with the session's bearer token (lexicon com/atproto/repo/deleteRecord.json: "Delete a
 * repository record, or ensure it doesn't exist", so a post already gone answers 200 too). The stored id is the
 * post's at:// URI; a refused cached session is renewed once.
 */
export function createBlueskyManagement({ base, sessions }: { base: string; sessions: SessionCache }): Pick<PostManagement, 'delete'> {
  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const m = POST_URI.exec(ref.id);
    if (!m) return rejected(`bluesky: ${ref.id} is not the at:// address of a post, so it cannot be deleted here`);
    for (let attempt = 0; ; attempt++) {
      const session = await openSession(ctx, base, sessions, attempt > 0);
      if (!session.ok) return session;
      const res = await request(ctx, `${base}/xrpc/com.atproto.repo.deleteRecord`,
        jsonInit('POST', { repo: m[1], collection: 'app.bsky.feed.post', rkey: m[2] }, { authorization: `Bearer ${session.accessJwt}` }));
      if (res.status === 200) return { ok: true };
      const failure = xrpcFailure(res, 'delete', ctx.now());
      if (failure.kind !== 'reauth' || attempt > 0) return failure;
      sessions.drop(sessionKey(ctx, base));
    }
  }
  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)) };
}
