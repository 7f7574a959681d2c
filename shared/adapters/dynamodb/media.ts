import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MediaItem, MediaStore, UploadLink } from '../../ports/media';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { GSI1, keys, strip } from './keys';

/**
 * Media items (`MEDIA#<med>`) and hosted upload links (`UPLINK#<sha256 of token>`): single-item conditional writes,
 * each condition checking expiry itself (TTL deletion is lazy, and the embedded engine never deletes).
 */
export class DynamoMediaStore implements MediaStore {
  constructor(private readonly t: TableRef) {}

  async create(item: MediaItem): Promise<void> {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      // gsi1: the account's media by creation time (listUploaded)
      Item: { ...keys.media(item.id), ...keys.mediaByAccount(item.account_id, item.created_at, item.id), ...item },
      // a new id never overwrites an upload
      ConditionExpression: cond.absent,
    }));
  }

  async get(id: string): Promise<MediaItem | undefined> {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.media(id), ConsistentRead: true }));
    return res.Item ? strip<MediaItem>(res.Item) : undefined;
  }

  async markUploaded(id: string, at: string, nowSec: number): Promise<MediaItem | undefined> {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.media(id),
        UpdateExpression: 'SET #state = :uploaded, uploaded_at = if_not_exists(uploaded_at, :at)',
        // exists and has not expired (an expired item is gone for the API even before TTL removes it)
        ConditionExpression: and(cond.present, cond.live),
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':uploaded': 'uploaded', ':at': at, ':now': nowSec },
        ReturnValues: 'ALL_NEW',
      }));
      return strip<MediaItem>(res.Attributes!);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async listUploaded(accountId: string, nowSec: number, limit: number, before?: string): Promise<MediaItem[]> {
    const startKey = before ? await this.get(before) : undefined;
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, ScanIndexForward: false, Limit: limit,
      KeyConditionExpression: startKey?.account_id === accountId ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      // only uploaded files; TTL deletion is lazy, so an expired item is filtered out here
      FilterExpression: '#state = :uploaded AND expires_at >= :now',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':pk': keys.mediaByAccount(accountId, '', '').gsi1pk, ':now': nowSec, ':uploaded': 'uploaded',
        ...(startKey?.account_id === accountId ? { ':before': keys.mediaByAccount(accountId, startKey.created_at, startKey.id).gsi1sk } : {}),
      },
    }));
    // Limit counts items read before the filter: a page may hold fewer than `limit` even when more exist
    return (res.Items ?? []).map((i) => strip<MediaItem>(i));
  }

  async delete(id: string): Promise<void> {
    await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: keys.media(id) }));
  }

  async createLink(link: UploadLink): Promise<void> {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.uploadLink(link.hash), ...link },
      // a token hash is written once
      ConditionExpression: cond.absent,
    }));
  }

  async getLink(hash: string): Promise<UploadLink | undefined> {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.uploadLink(hash), ConsistentRead: true }));
    return res.Item ? strip<UploadLink>(res.Item) : undefined;
  }

  async startLinkUpload(hash: string, mediaId: string, nowSec: number): Promise<boolean> {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.uploadLink(hash),
        UpdateExpression: 'SET media_id = :media',
        // the link exists, no file arrived through it yet, and it has not expired
        ConditionExpression: and(cond.present, cond.unused, cond.live),
        ExpressionAttributeValues: { ':media': mediaId, ':now': nowSec },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async closeLink(hash: string, mediaId: string, at: string, nowSec: number, keepUntilSec: number): Promise<boolean> {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.uploadLink(hash),
        UpdateExpression: 'SET used_at = :at, expires_at = :keep',
        // open and unexpired, and this upload is the one the link started last
        ConditionExpression: and(cond.present, cond.unused, cond.live, 'media_id = :media'),
        ExpressionAttributeValues: { ':at': at, ':media': mediaId, ':now': nowSec, ':keep': keepUntilSec },
      }));
      return true;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      // Closing twice for the same upload (the page and finalize both close it) is not a failure.
      const link = await this.getLink(hash);
      return link?.used_at !== undefined && link.media_id === mediaId;
    }
  }

  async deleteLink(hash: string): Promise<void> {
    await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: keys.uploadLink(hash) }));
  }

  async listExpired(nowSec: number, limit: number): Promise<{ media: MediaItem[]; links: UploadLink[] }> {
    const media: MediaItem[] = [];
    const links: UploadLink[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      // A Scan: acceptable only because the local runtime's sweep is its sole caller (a small local table); in
      // AWS, TTL and the bucket's lifecycle rule do this work.
      const res = await this.t.doc.send(new ScanCommand({
        TableName: this.t.tableName,
        // a media item or an upload link, whose expiry has passed
        FilterExpression: and(or('begins_with(pk, :media)', 'begins_with(pk, :link)'), cond.expired),
        ExpressionAttributeValues: { ':media': keys.mediaPrefix, ':link': keys.uploadLinkPrefix, ':now': nowSec },
        ExclusiveStartKey: start,
      }));
      for (const item of res.Items ?? []) {
        if (media.length + links.length >= limit) break;
        if (String(item.pk).startsWith(keys.mediaPrefix)) media.push(strip<MediaItem>(item));
        else links.push(strip<UploadLink>(item));
      }
      start = res.LastEvaluatedKey;
    } while (start && media.length + links.length < limit);
    return { media, links };
  }
}
