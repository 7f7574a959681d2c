import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EventSink, ServiceEvent } from '../../ports/publishing';
import type { TableRef } from './client';
import { keys, strip } from './keys';

/**
 * Recorded events: under their post (so GET /api/posts/{id} shows them) and indexed per account, newest first,
 * for webhook delivery and the activity log. Events expire after 30 days.
 */
export class DynamoEventSink implements EventSink {
  constructor(private readonly t: TableRef, private readonly onRecorded?: (event: ServiceEvent) => Promise<void>) {}

  async record(event: ServiceEvent) {
    const postId = typeof event.data.post_id === 'string' ? event.data.post_id : undefined;
    const key = postId ? keys.event(postId, event.id) : keys.accountEvent(event.account_id, event.id);
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...key, ...keys.eventByAccount(event.account_id, event.id), ...event, expires_at: Math.floor(Date.parse(event.created_at) / 1000) + 30 * 86_400 },
    }));
    await this.onRecorded?.(event);
  }

  async listForPost(postId: string) {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :evt)',
      ExpressionAttributeValues: { ':pk': keys.post(postId).pk, ':evt': 'EVT#' },
    }));
    return (res.Items ?? []).map((i) => {
      const { expires_at: _e, ...rest } = strip<ServiceEvent & { expires_at?: number }>(i);
      return rest;
    });
  }
}
