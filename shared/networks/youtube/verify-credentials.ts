import type { Failure, NetworkVerifier } from '../../ports/networks';
import { guarded, rejected } from '../http';
import { trimBase } from '../../domain/values';
import { myChannels, YOUTUBE_API_BASE, type YouTubeOptions } from './oauth';

/** The stored access token, or a reauth Failure when there is none. */
export function accessToken(credentials: Record<string, string>): string | Failure {
  const t = (credentials.access_token ?? '').trim();
  return t || { ok: false, kind: 'reauth', error: 'youtube credentials have no access_token; sign in to youtube again' };
}

/** YouTube's credential check: `GET /youtube/v3/channels?part=snippet&mine=true`; the connected channel must be among them. */
export function createYouTubeVerifier(opts: YouTubeOptions = {}): NetworkVerifier {
  const api = trimBase(opts.apiBase ?? YOUTUBE_API_BASE);
  return {
    name: 'youtube',
    verify: (ctx) => guarded(async () => {
      const t = accessToken(ctx.credentials);
      if (typeof t !== 'string') return t;
      const channels = await myChannels(ctx, api, t);
      if (!Array.isArray(channels)) return channels;
      const wanted = ctx.credentials.channel_id;
      const channel = wanted ? channels.find((c) => c.id === wanted) : channels[0];
      if (!channel) return rejected(`youtube: these tokens no longer reach channel ${wanted}; connect the channel again`);
      return { ok: true as const, handle: channel.handle, credentials: { ...ctx.credentials, channel_id: channel.id, channel_title: channel.title } };
    }),
  };
}
