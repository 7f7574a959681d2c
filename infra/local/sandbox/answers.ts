import type http from 'node:http';
import type { FakeReply } from '../../../shared/networks/sandbox-kit/fake-server';
import type { SimulatedTextLimit } from '../../../shared/networks/sandbox-kit/sandbox-simulator';

/*
 * The sandbox's own answers in front of the simulators: the networks' text limits in their own words (each
 * simulator's `textLimit`), and the one-time 429 of a post marked `sandbox:429`.
 */

/** A publish whose text holds this is answered once with a 429 and a 2-second wait. */
export const RATE_LIMIT_MARK = 'sandbox:429';

/**
 * A network's own text limit, answered in its own words (the adapters check first, so the service never sends such a
 * post; a client calling the simulators directly meets it as it would the network).
 */
export function textLimitReply(rule: SimulatedTextLimit | undefined, relativeUrl: string, body: Buffer): FakeReply | undefined {
  if (!rule || !rule.path.test(new URL(relativeUrl, 'http://sandbox').pathname)) return undefined;
  let json: unknown;
  try { json = JSON.parse(body.toString('utf8')); } catch { return undefined; }
  const text = json && typeof json === 'object' ? rule.text(json as Record<string, unknown>) : undefined;
  return typeof text === 'string' && [...text].length > rule.max ? rule.reply : undefined;
}

export function send(res: http.ServerResponse, reply: FakeReply): void {
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
}

/**
 * What a retry of the same post repeats: the field holding the rate-limit mark (the post's text), not the whole body,
 * which may change on every try (Bluesky's record carries a fresh createdAt). JSON and form bodies; else the body.
 */
export function markedText(body: string): string {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') { if (v.includes(RATE_LIMIT_MARK)) found.push(v); } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(body));
  } catch {
    for (const [, v] of new URLSearchParams(body)) walk(v);
  }
  return found.length ? found.join('\u0000') : body;
}

/** A 429 most networks' adapters read: Retry-After, plus Telegram's and Discord's own body fields. */
export function tooManyRequests(seconds: number): FakeReply {
  return {
    status: 429, headers: { 'retry-after': String(seconds) },
    body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds }, retry_after: seconds, message: 'You are being rate limited.', error: 'rate_limited' },
  };
}
