import { DeleteCommand, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MediaItem, MediaStore, UploadLink } from '../../ports/media';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { keys, strip } from './keys';

/**
 * Media items (`MEDIA#<med>`) and hosted upload links (`UPLINK#<sha256 of token>`): single-item conditional writes,
 * each condition checking expiry itself (TTL deletion is lazy, and the embedded engine never deletes).
 */
export class DynamoMediaStore implements MediaStore {
  constructor(private readonly t: TableRef) {}

  async create(item: MediaItem): Promise<void> {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.media(item.id), ...item },
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
