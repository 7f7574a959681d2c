import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { rejected } from '../http';

/** /services/<team>/<bot>/<secret>, as in https://hooks.slack.com/services/T…/B…/…. */
// the optional /sandbox/slack prefix: the local sandbox's simulator (its origin is the only private one allowed)
const WEBHOOK_PATH = /^(?:\/sandbox\/slack)?\/services\/([A-Za-z0-9]+)\/([A-Za-z0-9]+)\/([A-Za-z0-9]+)\/?$/;

export interface SlackWebhook { url: string; team: string }

/** The webhook URL without query, fragment or trailing slash, plus its workspace part; undefined when not a webhook URL. */
export function parseWebhookUrl(raw: string): SlackWebhook | undefined {
  let url: URL;
  try { url = new URL(raw.trim()); } catch { return undefined; }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const m = WEBHOOK_PATH.exec(url.pathname);
  if (!m) return undefined;
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, team: m[1] };
}

/**
 * Slack's credential check, without a network call: an incoming webhook cannot be checked without posting to the
 * channel, so only the URL shape is checked; handle 'slack webhook <T…>', team_id added to the credentials.
 */
export function createSlackVerifier(): NetworkVerifier {
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const hook = parseWebhookUrl(ctx.credentials.webhook_url ?? '');
    if (!hook) return rejected('webhook_url is not a Slack incoming webhook URL (expected https://hooks.slack.com/services/T…/B…/…)');
    return { ok: true, handle: `slack webhook ${hook.team}`, credentials: { ...ctx.credentials, webhook_url: hook.url, team_id: hook.team } };
  }
  return { name: 'slack', verify };
}
