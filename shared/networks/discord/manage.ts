import type { ChangeOutcome, Failure, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request, type HttpResult } from '../http';
import { checkDiscord, discordContent } from './limits';

/**
 * Deleting and editing a message the webhook sent (Discord, discord.com/developers/docs/resources/webhook
 * "Delete Webhook Message" / "Edit Webhook Message"): `DELETE <webhook>/messages/<message id>` (204; a message already
 * gone, 404 with code 10008 Unknown Message, counts as deleted) and `PATCH <webhook>/messages/<message id>` JSON
 * {content, allowed_mentions}. The stored id is the message id `POST <webhook>?wait=true` answered.
 */
export function createDiscordManagement({ parseWebhookUrl, classifyDiscord }: {
  /** The adapter's own webhook URL parsing and failure sorting (shared/networks/discord/index.ts). */
  parseWebhookUrl: (raw: string) => string | undefined;
  classifyDiscord: (res: HttpResult, what: string) => Failure;
}): Required<PostManagement> {
  const target = (ref: PublishedRef, ctx: NetworkContext) => {
    const webhook = parseWebhookUrl(ctx.credentials.webhook_url ?? '');
    return webhook && /^\d+$/.test(ref.id) ? `${webhook}/messages/${ref.id}` : undefined;
  };
  const unknownMessage = (json: unknown) => typeof json === 'object' && json !== null && (json as { code?: unknown }).code === 10008;

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const url = target(ref, ctx);
    if (!url) return rejected('The stored Discord message id or webhook_url cannot address this message');
    const res = await request(ctx, url, { method: 'DELETE', headers: { accept: 'application/json' } });
    if ((res.status >= 200 && res.status < 300) || (res.status === 404 && unknownMessage(res.json))) return { ok: true };
    return classifyDiscord(res, 'message delete');
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const url = target(ref, ctx);
    if (!url) return rejected('The stored Discord message id or webhook_url cannot address this message');
    const invalid = checkDiscord(content);
    if (invalid) return invalid;
    const res = await request(ctx, url, jsonInit('PATCH', { content: discordContent(content), allowed_mentions: { parse: [] } }));
    if (res.status === 404 && unknownMessage(res.json)) return rejected('Discord no longer has this message (it was deleted in the channel)');
    if (res.status < 200 || res.status >= 300) return classifyDiscord(res, 'message edit');
    return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}
