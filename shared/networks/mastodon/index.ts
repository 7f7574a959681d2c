import { MEDIA_RULES } from './limits';
import { checkFile } from '../media-fit';
import { mastodonStatusRef } from './post-ref';
import type { Failure, FetchedMedia, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { checkContent, field, mastodonFailure, str } from './rules';
import { createMastodonManagement } from './manage';
import { mastodonReadBack } from './read-back';
import { account, auth, createMastodonVerifier, type Account } from './verify-credentials';
import { mastodonMetrics } from './analytics';

export interface MastodonAdapterOptions {
  /** Wait between polls of a media attachment that is still processing (202 / 206). */
  pollIntervalMs?: number;
}

interface Status { id: string; url: string }

/**
 * Mastodon adapter (instance_url + access_token, Bearer auth against the user's own instance).
 * Endpoints: `GET /api/v1/accounts/verify_credentials` and `GET /api/v2/instance` (verify; the instance's
 * max_characters is kept in the credentials for check), `POST /api/v2/media` (multipart, bytes from ctx.fetchMedia)
 * then `GET /api/v1/media/:id` polled while 202/206 until 200, `POST /api/v1/statuses` (JSON, visibility from
 * content.privacy, `Idempotency-Key`; thread entries and the first comment as replies via in_reply_to_id with
 * derived keys `<key>:t<n>` / `<key>:c`).
 * Failures: 429 → rate_limited (X-RateLimit-Reset ISO time); 401 / 403 → reauth; 422 → rejected with Mastodon's
 * text; refused media → bad_media; media still processing at the deadline, 5xx, network → transient; no answer → timeout.
 * Result id = status.id, url = status.url.
 */
export function createMastodonAdapter({ pollIntervalMs = 1000 }: MastodonAdapterOptions = {}): NetworkAdapter {


  async function uploadMedia(ctx: NetworkContext, a: Account, file: FetchedMedia, n: number, alt: string | undefined): Promise<string | Failure> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.content_type }), file.filename);
    if (alt) form.append('description', alt);
    const res = await request(ctx, `${a.base}/api/v2/media`, { method: 'POST', headers: auth(a), body: form });
    if (res.status !== 200 && res.status !== 202) {
      const failure = mastodonFailure(res, `media ${n} upload`, ctx.now());
      return failure.kind === 'rejected' ? { ...failure, code: 'bad_media' } : failure;
    }
    const id = str(field(res.json, 'id')) ?? String(field(res.json, 'id') ?? '');
    if (!id) return { ok: false, kind: 'transient', error: `mastodon media ${n} upload answered without an id` };
    let status = res.status;
    while (status !== 200) {
      if (ctx.now() + pollIntervalMs >= ctx.deadline) {
        return { ok: false, kind: 'transient', error: `mastodon was still processing media ${n} when the time ran out; nothing was posted` };
      }
      await ctx.sleep(pollIntervalMs);
      const poll = await request(ctx, `${a.base}/api/v1/media/${encodeURIComponent(id)}`, { headers: auth(a) });
      if (poll.status !== 200 && poll.status !== 206) return mastodonFailure(poll, `media ${n} processing`, ctx.now());
      status = poll.status;
    }
    return id;
  }

  /**
   * The local id of the status to reply to: an id or a link on the account's own server as is; a link from another
   * server resolved through `GET /api/v2/search?q=<link>&resolve=true&type=statuses`.
   */
  async function statusId(ctx: NetworkContext, a: Account, ref: string): Promise<string | Failure> {
    const parsed = mastodonStatusRef(ref);
    if (!parsed) return rejected(`mastodon reply_to: ${ref} is not a status link or id`);
    if (!parsed.host || parsed.host === new URL(a.base).host) return parsed.id;
    const res = await request(ctx, `${a.base}/api/v2/search?${new URLSearchParams({ q: ref.trim(), resolve: 'true', type: 'statuses', limit: '1' })}`, { headers: { ...auth(a), accept: 'application/json' } });
    if (res.status !== 200) return mastodonFailure(res, 'reply_to lookup', ctx.now());
    const statuses = field(res.json, 'statuses');
    const id = Array.isArray(statuses) ? str(field(statuses[0], 'id')) : undefined;
    return id ?? rejected(`mastodon reply_to: your server could not find ${ref} (deleted, private, or its server unreachable)`);
  }

  async function postStatus(ctx: NetworkContext, a: Account, body: Record<string, unknown>, key: string): Promise<Status | Failure> {
    const res = await request(ctx, `${a.base}/api/v1/statuses`, jsonInit('POST', body, { ...auth(a), 'idempotency-key': key }));
    if (res.status !== 200) return mastodonFailure(res, 'post', ctx.now());
    const id = str(field(res.json, 'id'));
    if (!id) return { ok: false, kind: 'transient', error: 'mastodon answered the post without an id' };
    return { id, url: str(field(res.json, 'url')) ?? str(field(res.json, 'uri')) ?? `${a.base}/statuses/${id}` };
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const invalid = checkContent(content, ctx.credentials);
    if (invalid) return invalid;
    const files: FetchedMedia[] = [];
    for (const [i, item] of content.media.entries()) {
      const file = await ctx.fetchMedia(item.url);
      const unfit = checkFile('mastodon', MEDIA_RULES, item.kind, file, i);
      if (unfit) return unfit;
      files.push(file);
    }
    const replyTo = content.options?.reply_to !== undefined ? await statusId(ctx, a, content.options.reply_to) : undefined;
    if (typeof replyTo === 'object') return replyTo;
    const mediaIds: string[] = [];
    for (const [i, file] of files.entries()) {
      const id = await uploadMedia(ctx, a, file, i + 1, content.media[i].alt);
      if (typeof id !== 'string') return id;
      mediaIds.push(id);
    }
    const visibility = content.privacy ?? 'public';
    const first = await postStatus(ctx, a, {
      status: content.text, visibility, ...(mediaIds.length ? { media_ids: mediaIds } : {}), ...(replyTo ? { in_reply_to_id: replyTo } : {}),
    }, content.send_key);
    if ('ok' in first) return first;

    const result: PublishOutcome = { ok: true, status: 'published', id: first.id, url: first.url };
    // The first status exists from here on: a failing follow-up ends the chain but never turns the result into a
    // failure. thread_ids / comment_id list what was made.
    try {
      let parent = first.id;
      for (const [i, text] of content.thread.entries()) {
        const reply = await postStatus(ctx, a, { status: text, visibility, in_reply_to_id: parent }, `${content.send_key}:t${i + 1}`);
        if ('ok' in reply) return result;
        (result.thread_ids ??= []).push(reply.id);
        parent = reply.id;
      }
      if (content.first_comment !== undefined) {
        const comment = await postStatus(ctx, a, { status: content.first_comment, visibility, in_reply_to_id: first.id }, `${content.send_key}:c`);
        if (!('ok' in comment)) result.comment_id = comment.id;
      }
    } catch {
      // timeout / unreachable after the first status: keep what was published
    }
    return result;
  }

  return {
    name: 'mastodon',
    verify: createMastodonVerifier().verify,
    check: checkContent,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    ...createMastodonManagement(),
    readBack: mastodonReadBack,
    metrics: mastodonMetrics,
  };
}
