import type { Deps } from '../deps';
import { FORMAT_VERSION } from '../../ports/format-version';
import type { PlatformName } from '../../domain/platforms';
import type { PostPayload } from '../../domain/post';
import type { NetworkRecord, PostRecord, PublishContext } from '../../ports/publishing';
import type { Actor } from '../auth';
import { checkBrandAllowed, platformRefusal } from '../guardrails/enforce';
import type { ChangeKind, ChangeNetwork, ChangeResult, EditPayload, PostChange, StoredChange } from '../../ports/post-changes';
import { BadRequestError, ConflictError, NotFoundError } from '../../domain/errors';
import { isId, newId } from '../../domain/ids';
import { contentFor } from '../publish/content';
import { readCredentials } from '../oauth/credentials';
import { appendLogContext, errorFields, log } from '../../log';
import type { PostChangeMessage } from './change-message';
import { changeDone, changeFailed, changeFromFailure } from './change-results';

/** The wait's reads, as a publish's (shared/app/publish/create-post.ts): every 20 ms, or 200 ms where settles ring. */
const RESULT_POLL_MS = 20;
const BACKSTOP_POLL_MS = 200;

/** How long a delete or edit holds its post's lock at most (a worker that died lets go after this). */
export const CHANGE_LOCK_TTL_SECONDS = 15 * 60;

/** What deleting or editing a post reaches: the post and its changes, the lock, the connections, the queue, the wait. */
export type PostDeleteDeps = Pick<Deps, 'clock' | 'connections' | 'locks' | 'postChanges' | 'posts' | 'publishContext' | 'queue' | 'resultSignal' | 'settings' | 'networkLimits'>;
/** An edit reads the connection's credentials too, for the network's content checks. */
export type PostChangeDeps = PostDeleteDeps & Pick<Deps, 'cipher'>;

/**
 * Who asks: an API key or AI app is held to its guardrails as when publishing (a brand it may not post to is 403
 * brand_not_allowed; a network it may not post to fails platform_not_allowed), so that it cannot take back or
 * rewrite what it could not have posted. `context` is the publish context its authentication already read.
 */
export interface ChangeActor {
  actor?: Actor;
  context?: PublishContext;
}

/** DELETE /api/posts/{id}: which networks (default: every network of the post). */
export interface DeleteRequest {
  platforms?: PlatformName[];
}

/** PATCH /api/posts/{id}: the new text (and per-network text / title), on which networks (default: all of the post). */
export interface EditRequest extends EditPayload {
  platforms?: PlatformName[];
}

/** The answer of a delete or an edit: one result per network, in the order asked. `change_id` is null when nothing was sent. */
export interface ChangeResponse {
  post_id: string;
  change_id: string | null;
  results: ChangeResult[];
}

/**
 * Deletes a published post on each of its networks (DELETE /api/posts/{id}): one result per network, `deleted` or
 * a failure with code/what/fix (`not_supported` where the network's API has no delete). A network deleted before
 * answers `deleted` again without any network call.
 */
export async function deletePost(deps: PostDeleteDeps, accountId: string, postId: string, req: DeleteRequest = {}, by: ChangeActor = {}): Promise<ChangeResponse> {
  return requestChange(deps, accountId, postId, 'delete', req.platforms, by);
}

/**
 * Edits a published post's text on each network that allows it (PATCH /api/posts/{id}); the network's content
 * checks (the same functions as a publish's) run first, per network, and nothing is sent to a network they refuse.
 */
export async function editPost(deps: PostChangeDeps, accountId: string, postId: string, req: EditRequest, by: ChangeActor = {}): Promise<ChangeResponse> {
  const { platforms, ...edit } = req;
  if (edit.text === undefined && edit.title === undefined && !Object.values(edit.per_platform ?? {}).some((d) => d?.text !== undefined || d?.title !== undefined)) {
    throw new BadRequestError('Nothing to edit: send text, title or per_platform text / title', { code: 'empty_text' });
  }
  return requestChange(deps, accountId, postId, 'edit', platforms, by, edit, (post, platform) => editRefusal(deps, post, platform, edit));
}

/** The payload a network's edit sends: the post's payload with the edit's text, title and per-network drafts over it. */
export function editedPayload(payload: PostPayload, edit: EditPayload): PostPayload {
  const per: PostPayload['per_platform'] = { ...payload.per_platform };
  for (const [platform, d] of Object.entries(edit.per_platform ?? {}) as Array<[PlatformName, { text?: string; title?: string }]>) {
    per[platform] = { ...per[platform], ...(d.text !== undefined ? { text: d.text } : {}), ...(d.title !== undefined ? { title: d.title } : {}) };
  }
  // a new post-wide text replaces drafts' texts only where the edit names no text of its own for that network
  if (edit.text !== undefined) for (const p of Object.keys(per) as PlatformName[]) if (edit.per_platform?.[p]?.text === undefined && per[p]?.text !== undefined) per[p] = { ...per[p], text: undefined };
  return { ...payload, ...(edit.text !== undefined ? { text: edit.text } : {}), ...(edit.title !== undefined ? { title: edit.title } : {}), per_platform: per };
}

/** The published post of a network, when it has one to change. */
export function publishedRef(n: NetworkRecord | undefined): { id: string; url?: string } | undefined {
  return n && n.state === 'done' && n.result?.ok && n.result.status === 'published' && n.result.id ? { id: n.result.id, ...(n.result.url ? { url: n.result.url } : {}) } : undefined;
}

/** Whether an earlier change deleted the post on this network (its delete result was ok). */
export const deletedBefore = (history: StoredChange[], platform: PlatformName) =>
  history.some((c) => c.change.kind === 'delete' && c.networks.some((n) => n.platform === platform && n.state === 'done' && n.result?.ok));

/**
 * The shared steps of a delete and an edit:
 * 1. The post must be the account's (404); `platforms` must be networks of the post (400).
 * 2. Per network, without any network call: deleted before (a delete answers deleted; an edit post_deleted), nothing
 *    published (not_published), no such API (not_supported), and for an edit the connection and content checks.
 * 3. Networks left: take the post's change lock (409 post_busy while another delete or edit runs; a conditional
 *    write), store the change, queue one message per network, and wait for the workers like a publish does.
 */
async function requestChange(
  deps: PostDeleteDeps, accountId: string, postId: string, kind: ChangeKind, platforms: PlatformName[] | undefined, by: ChangeActor, edit?: EditPayload,
  checkEdit?: (post: PostRecord, platform: PlatformName) => Promise<ChangeResult | undefined>,
): Promise<ChangeResponse> {
  const found = isId('pst', postId) ? await deps.posts.get(postId) : undefined;
  if (!found || found.post.account_id !== accountId) throw new NotFoundError('No such post');
  const { post, networks } = found;
  appendLogContext({ post_id: post.id });
  const asked = platforms?.length ? [...new Set(platforms)] : post.platforms;
  const foreign = asked.filter((p) => !post.platforms.includes(p));
  if (foreign.length) throw new BadRequestError(`This post was not sent to ${foreign.join(', ')}`, { details: { platforms: foreign } });
  const guard = by.actor ? (by.context ?? await deps.publishContext.load(accountId, by.actor)).guardrails : undefined;
  checkBrandAllowed(guard, post.brand_id);

  const history = await deps.postChanges.listForPost(post.id);
  const results = new Map<PlatformName, ChangeResult>();
  const queued: PlatformName[] = [];
  for (const platform of asked) {
    const refused = platformRefusal(guard, platform);
    if (refused) { results.set(platform, changeFailed(platform, 'platform_not_allowed', refused.error ?? `Not allowed on ${platform}`)); continue; }
    const decided = decideBeforeSending(deps, post, networks.find((n) => n.platform === platform), platform, kind, history) ?? await checkEdit?.(post, platform);
    if (decided) results.set(platform, decided);
    else queued.push(platform);
  }
  if (queued.length === 0) return { post_id: post.id, change_id: null, results: asked.map((p) => results.get(p)!) };

  const now = deps.clock.now();
  const change: PostChange = {
    id: newId('chg', now), post_id: post.id, account_id: accountId, kind, platforms: asked, created_at: new Date(now).toISOString(),
    lock: `change#${post.id}`, ...(edit ? { edit } : {}),
  };
  const got = await deps.locks.acquire(change.lock, change.id, CHANGE_LOCK_TTL_SECONDS, now);
  if (!got.ok) {
    throw new ConflictError('Another delete or edit of this post is still running: nothing was changed; try again when it has finished', { code: 'post_busy', details: { change_id: got.heldBy || undefined } });
  }
  const rows: ChangeNetwork[] = asked.map((platform) => (queued.includes(platform) ? { platform, state: 'queued' } : { platform, state: 'done', result: results.get(platform)! }));
  try {
    await deps.postChanges.create(change, rows);
  } catch (err) {
    await deps.locks.release(change.lock, change.id);
    throw err;
  }
  let final: ChangeNetwork[] = rows;
  try {
    await deps.queue.sendAll(deps.settings.publishQueueUrl, queued.map((platform) => ({
      id: platform, body: { v: FORMAT_VERSION, change: kind, post_id: post.id, change_id: change.id, platform } satisfies PostChangeMessage,
    })));
    final = await waitForChange(deps, change, deps.clock.now() + deps.settings.publishWaitMs);
  } catch (err) {
    log.error('change messages could not be queued; those networks fail', { post_id: post.id, change_id: change.id, ...errorFields(err) });
    final = await failUnqueued(deps, change, queued);
  }
  if (final.every((n) => n.state === 'done')) await deps.locks.release(change.lock, change.id);
  return {
    post_id: post.id, change_id: change.id,
    results: asked.map((platform) => {
      const n = final.find((x) => x.platform === platform);
      return n?.state === 'done' && n.result ? n.result : changeFailed(platform, 'timed_out', 'No answer from the network before the reply was due; the outcome will arrive by webhook', {
        status: 'unknown', what: `The network did not answer before the reply was due; the ${kind} may or may not have been made.`, fix: 'Do not repeat it yet: the outcome arrives by webhook and GET /api/posts/{id} shows it.',
      });
    }),
  };
}

/** A network's result when it is decided without sending anything; undefined when the network is to be called. */
function decideBeforeSending(deps: Pick<Deps, 'networkLimits'>, post: PostRecord, net: NetworkRecord | undefined, platform: PlatformName, kind: ChangeKind, history: StoredChange[]): ChangeResult | undefined {
  if (deletedBefore(history, platform)) {
    return kind === 'delete' ? changeDone(platform, 'delete', net?.result?.url) : changeFailed(platform, 'post_deleted', `The ${platform} post was deleted before`);
  }
  const ref = publishedRef(net);
  if (!ref) return changeFailed(platform, 'not_published', `Nothing of this post is published on ${platform}${net?.state === 'done' ? '' : ' yet'}`);
  if (!deps.networkLimits.manage(platform)[kind]) {
    return changeFailed(platform, `not_supported_${kind}`, `${platform} has no API to ${kind} a published post`);
  }
  return undefined;
}

/** An edit's refusal before sending: the connection is gone or lost, or the network's content checks refuse the edit. */
async function editRefusal(deps: Pick<Deps, 'cipher' | 'connections' | 'networkLimits'>, post: PostRecord, platform: PlatformName, edit: EditPayload): Promise<ChangeResult | undefined> {
  const connection = await deps.connections.get(post.account_id, post.brand_id, platform);
  if (!connection) return changeFailed(platform, 'not_connected', `${platform} is no longer connected in this brand`);
  if (connection.status === 'reauth_required') return changeFailed(platform, 'reauth_required', `The ${platform} connection needs a new sign-in`);
  const content = contentFor(editedPayload(post.payload, edit), platform, post.id);
  if (content.text.trim() === '' && content.media.length === 0) return changeFailed(platform, 'empty_text', `The edit leaves nothing to show on ${platform}`);
  const refused = deps.networkLimits.checkContent(platform, content, await readCredentials(deps, connection));
  return refused ? changeFromFailure(platform, refused) : undefined;
}

/**
 * Reads the change until no network is queued or sending, or `until` (deps.clock) has come; a worker's ring on the
 * post ends a wait early (the same polling as a publish's wait).
 */
async function waitForChange(deps: Pick<Deps, 'clock' | 'postChanges' | 'resultSignal'>, change: PostChange, until: number): Promise<ChangeNetwork[]> {
  const interval = deps.resultSignal.rings ? BACKSTOP_POLL_MS : RESULT_POLL_MS;
  let listener = deps.resultSignal.listen(change.post_id);
  try {
    for (;;) {
      const read = await deps.postChanges.get(change.post_id, change.id);
      const networks = read?.networks ?? [];
      if (!networks.some((n) => n.state !== 'done') || deps.clock.now() >= until) return networks;
      await Promise.race([deps.clock.sleep(Math.min(interval, Math.max(0, until - deps.clock.now()))), listener.rung]);
      listener.stop();
      listener = deps.resultSignal.listen(change.post_id);
    }
  } finally {
    listener.stop();
  }
}

/** The queue refused the messages: the networks still queued fail with internal_error. */
async function failUnqueued(deps: Pick<Deps, 'clock' | 'postChanges'>, change: PostChange, platforms: PlatformName[]): Promise<ChangeNetwork[]> {
  let networks: ChangeNetwork[] = [];
  for (const platform of platforms) {
    const claimed = await deps.postChanges.claim(change.post_id, change.id, platform, deps.clock.now(), 0);
    if (claimed) networks = (await deps.postChanges.settle(change.post_id, change.id, platform, changeFailed(platform, 'internal_error', `The ${change.kind} could not be queued for sending`))).networks;
  }
  return networks.length ? networks : (await deps.postChanges.get(change.post_id, change.id))?.networks ?? [];
}
