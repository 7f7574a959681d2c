import type { Deps } from '../deps';
import type { ApprovalRecord } from '../../ports/approvals';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import type { AppError } from '../../domain/errors';
import { failed } from '../network-results';
import { countOutcome, outcomeEvent } from '../publish/events';

/**
 * An approved post that the publish path refused as a whole (a monthly cap or the plan's month reached meanwhile,
 * its brand gone, …) is never dropped: it is stored as a post whose every network failed with the refusal's code,
 * each with its post.failed event, so GET /api/posts/{id}, the post's page and webhooks show it like any failure.
 * A post the publish path had already stored is left as it is.
 */
export async function recordNotPublished(deps: Pick<Deps, 'clock' | 'fanOut' | 'posts'>, a: ApprovalRecord, err: AppError): Promise<void> {
  if (await deps.posts.get(a.post_id)) return;
  const now = deps.clock.now();
  const post: PostRecord = {
    id: a.post_id, account_id: a.account_id, brand_id: a.brand_id, brand_name: a.brand_name, source: a.source,
    ...(a.schedule_id ? { schedule_id: a.schedule_id } : {}),
    idempotency_key: a.post.idempotency_key ?? null, platforms: a.platforms, payload: a.post.payload,
    created_at: new Date(now).toISOString(), ...(a.actor ? { actor: a.actor } : {}), approval_id: a.id,
  };
  const networks: NetworkRecord[] = a.platforms.map((platform) => {
    const result = failed(platform, err.code, err.message);
    return { post_id: post.id, account_id: post.account_id, platform, state: 'done', deferrals: 0, reserved: false, result, event: outcomeEvent(deps, post, undefined, result) };
  });
  const queues = await Promise.all(networks.map((n) => deps.fanOut.prepare(n.event!)));
  await deps.posts.create(post, networks);
  for (const n of networks) countOutcome(n.result!);
  for (const queue of queues) await queue();
}
