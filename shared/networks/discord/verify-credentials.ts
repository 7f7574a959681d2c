import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { classifyStatus, guarded, rejected, request, retryAfterSeconds, type HttpResult } from '../http';
import { isRecord } from '../../domain/values';

/** /api/webhooks/<id>/<token>, optionally /api/v<N>/webhooks/<id>/<token>. */
// the optional /sandbox/discord prefix: the local sandbox's simulator (its origin is the only private one allowed)
const WEBHOOK_PATH = /^(?:\/sandbox\/discord)?\/api\/(?:v\d+\/)?webhooks\/(\d+)\/([A-Za-z0-9_-]+)\/?$/;

/** A non-empty string or a number as text; undefined otherwise. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * The webhook URL without query, fragment or trailing slash, or undefined when it is not a Discord webhook URL.
 * Any host is accepted here (the service checks addresses); only http(s) and the path shape are required.
 */
export function parseWebhookUrl(raw: string): string | undefined {
  let url: URL;
  try { url = new URL(raw.trim()); } catch { return undefined; }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (!WEBHOOK_PATH.test(url.pathname)) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Sorts a failed webhook answer by Discord's signals; the webhook URL (which holds the token) is never echoed. */
export function classifyDiscord(res: HttpResult, what: string): Failure {
  const body = isRecord(res.json) ? res.json : {};
  const code = typeof body.code === 'number' ? body.code : undefined;
  const detail = typeof body.message === 'string' ? body.message : res.text.slice(0, 200) || `HTTP ${res.status}`;
  const message = `Discord ${what} failed (${res.status}${code !== undefined ? `, code ${code}` : ''}): ${detail}`;
  if (res.status === 429) {
    const secs = typeof body.retry_after === 'number' ? body.retry_after : retryAfterSeconds(res.headers, res.at) ?? 5;
    return { ok: false, kind: 'rate_limited', retry_after: Math.max(1, Math.ceil(secs)), error: message };
  }
  if (res.status === 404 || code === 10015) return { ok: false, kind: 'reauth', error: `${message} — the webhook was deleted; create a new one and reconnect` };
  if (res.status === 401 || res.status === 403) return { ok: false, kind: 'reauth', error: `${message} — the webhook token is invalid or lacks permission; reconnect with a new webhook URL` };
  if (res.status === 413 || code === 40005) return rejected(message, 'bad_media');
  return classifyStatus(res, message);
}

/** Discord's credential check: `GET <webhook>` ({id, name, channel_id, guild_id}; guild and channel kept for links). */
export function createDiscordVerifier(): NetworkVerifier {
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const webhook = parseWebhookUrl(ctx.credentials.webhook_url ?? '');
    if (!webhook) return rejected('webhook_url is not a Discord webhook URL (expected https://discord.com/api/webhooks/<id>/<token>)');
    return guarded(async () => {
      const res = await request(ctx, webhook, { method: 'GET', headers: { accept: 'application/json' } });
      if (res.status < 200 || res.status >= 300) return classifyDiscord(res, 'webhook check');
      const body = isRecord(res.json) ? res.json : {};
      const credentials: Record<string, string> = { ...ctx.credentials, webhook_url: webhook };
      delete credentials.guild_id;
      delete credentials.channel_id;
      const guild = str(body.guild_id);
      const channel = str(body.channel_id);
      if (guild) credentials.guild_id = guild;
      if (channel) credentials.channel_id = channel;
      const handle = str(body.name) ?? 'Discord webhook';
      return { ok: true as const, handle, credentials };
    });
  }
  return { name: 'discord', verify };
}
