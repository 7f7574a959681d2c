import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { MediaItem, MediaStore, UploadLink } from '../../ports/media';
import type { TableRef } from './client';
import { and, cond, or } from './conditions';
import { conditional, entity, orUndefined, type Bound } from './entity';
import { keys } from './keys';

const media = entity({
  key: keys.media,
  keyOf: (m: MediaItem) => keys.media(m.id),
  // gsi1: the account's media by creation time (listUploaded)
  indexOf: (m: MediaItem) => keys.mediaByAccount(m.account_id, m.created_at, m.id),
});

const uploadLink = entity({ key: keys.uploadLink, keyOf: (l: UploadLink) => keys.uploadLink(l.hash) });

/**
 * Media items (`MEDIA#<med>`) and hosted upload links (`UPLINK#<sha256 of token>`): single-item conditional writes,
 * each condition checking expiry itself (TTL deletion is lazy, and the embedded engine never deletes).
 */
export class DynamoMediaStore implements MediaStore {
  private readonly media: Bound<typeof media>;
  private readonly links: Bound<typeof uploadLink>;
  constructor(private readonly t: TableRef) {
    this.media = media.on(t);
    this.links = uploadLink.on(t);
  }

  create(item: MediaItem): Promise<void> {
    // a new id never overwrites an upload
    return this.media.put(item, { if: cond.absent });
  }

  get(id: string): Promise<MediaItem | undefined> {
    return this.media.get(id);
  }

  markUploaded(id: string, at: string, nowSec: number): Promise<MediaItem | undefined> {
    return orUndefined(this.media.updateAndRead([id], {
      expression: 'SET #state = :uploaded, uploaded_at = if_not_exists(uploaded_at, :at)',
      names: { '#state': 'state' }, values: { ':uploaded': 'uploaded', ':at': at },
    }, {
      // exists and has not expired (an expired item is gone for the API even before TTL removes it)
      if: and(cond.present, cond.live), values: { ':now': nowSec },
    }));
  }

  async listUploaded(accountId: string, nowSec: number, limit: number, before?: string): Promise<MediaItem[]> {
    const startKey = before ? await this.get(before) : undefined;
    const { gsi1pk } = keys.mediaByAccount(accountId, '', '');
    const page = await this.media.page({
      gsi1pk, ...(startKey?.account_id === accountId ? { before: keys.mediaByAccount(accountId, startKey.created_at, startKey.id).gsi1sk } : {}),
    }, {
      descending: true, limit,
      // only uploaded files; TTL deletion is lazy, so an expired item is filtered out here
      filter: { if: '#state = :uploaded AND expires_at >= :now', names: { '#state': 'state' }, values: { ':uploaded': 'uploaded', ':now': nowSec } },
    });
    // Limit counts items read before the filter: a page may hold fewer than `limit` even when more exist
    return page.items;
  }

  delete(id: string): Promise<void> {
    return this.media.delete([id]);
  }

  createLink(link: UploadLink): Promise<void> {
    // a token hash is written once
    return this.links.put(link, { if: cond.absent });
  }

  getLink(hash: string): Promise<UploadLink | undefined> {
    return this.links.get(hash);
  }

  startLinkUpload(hash: string, mediaId: string, nowSec: number): Promise<boolean> {
    return conditional(this.links.update([hash], { set: { media_id: mediaId } }, {
      // the link exists, no file arrived through it yet, and it has not expired
      if: and(cond.present, cond.unused, cond.live), values: { ':now': nowSec },
    }));
  }

  async closeLink(hash: string, mediaId: string, at: string, nowSec: number, keepUntilSec: number): Promise<boolean> {
    const closed = await conditional(this.links.update([hash], { set: { used_at: at, expires_at: keepUntilSec } }, {
      // open and unexpired, and this upload is the one the link started last
      if: and(cond.present, cond.unused, cond.live, 'media_id = :media'), values: { ':media': mediaId, ':now': nowSec },
    }));
    if (closed) return true;
    // Closing twice for the same upload (the page and finalize both close it) is not a failure.
    const link = await this.getLink(hash);
    return link?.used_at !== undefined && link.media_id === mediaId;
  }

  deleteLink(hash: string): Promise<void> {
    return this.links.delete([hash]);
  }

  async listExpired(nowSec: number, limit: number): Promise<{ media: MediaItem[]; links: UploadLink[] }> {
    const found: { media: MediaItem[]; links: UploadLink[] } = { media: [], links: [] };
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
        if (found.media.length + found.links.length >= limit) break;
        if (String(item.pk).startsWith(keys.mediaPrefix)) found.media.push(this.media.fromItem(item));
        else found.links.push(this.links.fromItem(item));
      }
      start = res.LastEvaluatedKey;
    } while (start && found.media.length + found.links.length < limit);
    return found;
  }
}
