import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { EventSink, ServiceEvent } from '../../ports/publishing';
import { queryAll, type TableRef } from './client';
import { keys, strip } from './keys';

/**
 * Recorded events: under their post (so GET /api/posts/{id} shows them) or their account, indexed per account,
 * newest first; these expire after 30 days. A network's outcome event (post.published / post.failed) is not recorded
 * here: PostStore.settle stores it with the network's result in the post item, and it lives as long as the post.
 */
export class DynamoEventSink implements EventSink {
  constructor(private readonly t: TableRef) {}

  async record(event: ServiceEvent) {
    const postId = typeof event.data.post_id === 'string' ? event.data.post_id : undefined;
    const key = postId ? keys.event(postId, event.id) : keys.accountEvent(event.account_id, event.id);
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...key, ...keys.eventByAccount(event.account_id, event.id), ...event, expires_at: Math.floor(Date.parse(event.created_at) / 1000) + 30 * 86_400 },
    }));
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
        const { expires_at: _e, ...rest } = strip<ServiceEvent & { expires_at?: number }>(item);
        events.push(rest);
      }
    }
    return events.sort((a, b) => a.id.localeCompare(b.id));
  }
}
