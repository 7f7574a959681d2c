import type { Deps } from '../deps';

/**
 * Local mode's stand-in for the bucket lifecycle rule and DynamoDB TTL (spec §3: stored media is deleted after 30
 * days). The local runtime runs it periodically; in AWS it never runs.
 * 1. List media items and upload links past their expiry (at most `limit` per run).
 * 2. Delete each item's object, then the item (in that order, so a crash leaves an item the next run finds).
 * 3. Delete the expired upload links.
 */
export async function sweepExpiredMedia(deps: Pick<Deps, 'uploads' | 'blobs' | 'clock'>, limit = 500) {
  const nowSec = Math.floor(deps.clock.now() / 1000);
  const { media, links } = await deps.uploads.listExpired(nowSec, limit);
  for (const item of media) {
    await deps.blobs.delete(item.key);
    await deps.uploads.delete(item.id);
  }
  for (const link of links) await deps.uploads.deleteLink(link.hash);
  return { media: media.length, links: links.length };
}
