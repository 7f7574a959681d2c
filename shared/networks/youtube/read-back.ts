import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { isRecord } from '../../domain/values';

const PAGE = 50;

/**
 * YouTube read-back (youtube.readonly scope, 1 quota unit a call): `GET /youtube/v3/channels?part=contentDetails&id=
 * <channel_id>` gives the channel's uploads playlist, then `GET /youtube/v3/playlistItems?part=snippet&playlistId=<it>
 * &maxResults=50` lists the uploads newest first (`pageToken` = nextPageToken). A video is ours when its title and
 * description are what we sent, added inside the window. Its link is https://www.youtube.com/watch?v=<id> (it opens a
 * Short too).
 */
export function youtubeReadBack(api: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('youtube', async () => {
    const token = (ctx.credentials.access_token ?? '').trim();
    const channel = (ctx.credentials.channel_id ?? '').trim();
    if (!token || !channel) return { state: 'unreadable', reason: 'youtube: the connection has no access_token or channel_id' };
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const ch = await request(ctx, `${api}/youtube/v3/channels?part=contentDetails&id=${encodeURIComponent(channel)}`, { headers });
    const items = isRecord(ch.json) && Array.isArray(ch.json.items) ? (ch.json.items as unknown[]) : [];
    const first = items.find(isRecord);
    const details = first && isRecord(first.contentDetails) && isRecord(first.contentDetails.relatedPlaylists) ? first.contentDetails.relatedPlaylists : {};
    const uploads = typeof details.uploads === 'string' ? details.uploads : undefined;
    if (ch.status !== 200 || !uploads) return unreadableAnswer('youtube', ch, 'reading the channel\'s uploads playlist');
    return scanListing('youtube', q, [q.text, content.text], async (pageToken) => {
      const params = new URLSearchParams({ part: 'snippet', playlistId: uploads, maxResults: String(PAGE), ...(pageToken ? { pageToken } : {}) });
      const res = await request(ctx, `${api}/youtube/v3/playlistItems?${params}`, { headers });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || !Array.isArray(body.items)) return unreadableAnswer('youtube', res, 'listing the channel\'s uploads');
      const posts = (body.items as Array<Record<string, unknown>>).map((item): ListedPost => {
        const s = isRecord(item.snippet) ? item.snippet : {};
        const id = isRecord(s.resourceId) ? String(s.resourceId.videoId ?? '') : '';
        return { id, url: `https://www.youtube.com/watch?v=${id}`, text: String(s.description ?? ''), title: String(s.title ?? ''), at: timeOf(s.publishedAt) };
      });
      return { posts, next: typeof body.nextPageToken === 'string' ? body.nextPageToken : undefined };
    }, { title: q.title ?? content.title?.trim() });
  });
}
