import type { EventSink, ServiceEvent } from '../../ports/publishing';
import { queryAll, type TableRef } from './client';
import { entity, type Bound } from './entity';
import { keys } from './keys';

const postIdOf = (e: ServiceEvent) => (typeof e.data.post_id === 'string' ? e.data.post_id : undefined);

/** A recorded event: under its post, else its account; indexed per account; kept 30 days. */
const recordedEvent = entity({
  key: keys.event,
  keyOf: (e: ServiceEvent) => {
    const postId = postIdOf(e);
    return postId ? keys.event(postId, e.id) : keys.accountEvent(e.account_id, e.id);
  },
  indexOf: (e: ServiceEvent) => keys.eventByAccount(e.account_id, e.id),
  extraOf: (e: ServiceEvent) => ({ expires_at: Math.floor(Date.parse(e.created_at) / 1000) + 30 * 86_400 }),
  hidden: ['expires_at'],
});

/**
 * Recorded events: under their post (so GET /api/posts/{id} shows them) or their account, indexed per account,
 * newest first; these expire after 30 days. A network's outcome event (post.published / post.failed) is not recorded
 * here: PostStore.settle stores it with the network's result in the post item, and it lives as long as the post.
 */
export class DynamoEventSink implements EventSink {
  private readonly events: Bound<typeof recordedEvent>;
  constructor(private readonly t: TableRef) { this.events = recordedEvent.on(t); }

  record(event: ServiceEvent) {
    return this.events.put(event);
  }

  /** One query of the post's partition: the outcome events in the post item, and the events recorded on their own. */
  async listForPost(postId: string) {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.post(postId).pk },
    });
    const events: ServiceEvent[] = [];
    for (const item of items) {
      if (item.sk === 'POST') {
        for (const n of Object.values((item.networks ?? {}) as Record<string, { event?: ServiceEvent; reconciled_event?: ServiceEvent }>)) {
          if (n.event) events.push(n.event);
          if (n.reconciled_event) events.push(n.reconciled_event);
        }
      } else if (String(item.sk).startsWith('EVT#')) {
        events.push(this.events.fromItem(item));
      }
    }
    return events.sort((a, b) => a.id.localeCompare(b.id));
  }
}
