import { checkFile } from '../media-fit';
import type { Failure, MediaItem, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome } from '../../ports/networks';
import { guarded, jsonInit, request } from '../http';
import { isRecord } from '../../domain/values';
import { checkDiscord, discordContent, MEDIA_RULES } from './limits';
import { createDiscordManagement } from './manage';
import { classifyDiscord, createDiscordVerifier, parseWebhookUrl, str } from './verify-credentials';

export { discordContent };
export { classifyDiscord, parseWebhookUrl };

/**
 * Discord incoming-webhook adapter (credential: webhook_url).
 * Endpoints: `GET <webhook>` (verify: returns {id, name, channel_id, guild_id}; guild_id/channel_id are kept in the
 * normalised credentials for links) and `POST <webhook>?wait=true` JSON {content, allowed_mentions:{parse:[]}, embeds?}
 * (publish; an image becomes an image embed — or, when it has alt text, an uploaded attachment whose description is
 * the alt text (multipart payload_json + files[0]) — and a video URL goes into content for Discord to unfurl).
 * Failures: 429 → rate_limited (body retry_after, else Retry-After, rounded up); 404 / code 10015 (webhook deleted),
 * 401/403 → reauth; 413 / 40005 → bad_media; other 4xx (50006 empty, 50035 invalid form) → rejected; 5xx / network →
 * transient; deadline → timeout.
 */
export function createDiscordAdapter(): NetworkAdapter {
  const { verify } = createDiscordVerifier();

  /**
   * An image with alt text goes as an uploaded attachment (multipart: payload_json with attachments[0].description,
   * part files[0]), since an embed has no alt field.
   */
  async function withAttachment(ctx: NetworkContext, body: Record<string, unknown>, item: MediaItem): Promise<RequestInit | Failure> {
    const file = await ctx.fetchMedia(item.url);
    const unfit = checkFile('discord', MEDIA_RULES, 'image', file, 0);
    if (unfit) return unfit;
    const ext = file.content_type.split('/')[1]?.split(';')[0].replace('jpeg', 'jpg') ?? 'png';
    const filename = /^[\w.-]{1,80}\.(png|jpe?g|gif|webp)$/i.test(file.filename) ? file.filename : `image.${ext}`;
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ ...body, attachments: [{ id: 0, filename, description: item.alt }] }));
    form.append('files[0]', new Blob([new Uint8Array(file.bytes)], { type: file.content_type }), filename);
    return { method: 'POST', headers: { accept: 'application/json' }, body: form };
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const webhook = parseWebhookUrl(ctx.credentials.webhook_url ?? '');
    if (!webhook) return { ok: false, kind: 'reauth', error: 'The stored webhook_url is not a Discord webhook URL; reconnect Discord' };
    const bad = checkDiscord(content);
    if (bad) return bad;
    const body: Record<string, unknown> = { content: discordContent(content), allowed_mentions: { parse: [] } };
    const image = content.media.find((m) => m.kind === 'image');
    if (image && !image.alt) body.embeds = [{ image: { url: image.url } }];
    return guarded(async () => {
      const init = image?.alt ? await withAttachment(ctx, body, image) : jsonInit('POST', body);
      if ('ok' in init) return init;
      const res = await request(ctx, `${webhook}?wait=true`, init);
      if (res.status < 200 || res.status >= 300) return classifyDiscord(res, 'webhook post');
      const message = isRecord(res.json) ? res.json : {};
      const id = str(message.id);
      // A 2xx means Discord took the post; without an id it may exist, so this must not be retried as transient.
      if (!id) return { ok: false as const, kind: 'timeout' as const, error: `Discord answered ${res.status} without a message id; the post may have been made` };
      const channel = str(message.channel_id) ?? ctx.credentials.channel_id ?? '';
      const guild = str(message.guild_id) ?? ctx.credentials.guild_id ?? '@me';
      return { ok: true as const, status: 'published' as const, id, url: `https://discord.com/channels/${guild}/${channel}/${id}` };
    });
  }

  return { name: 'discord', verify, check: checkDiscord, publish, ...createDiscordManagement({ parseWebhookUrl, classifyDiscord }) };
}
