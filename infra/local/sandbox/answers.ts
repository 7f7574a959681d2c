import type http from 'node:http';
import type { PlatformName } from '../../../shared/domain/platforms';
import type { FakeReply } from './server';
import { PNG_BYTES } from './wordpress';

/*
 * The sandbox's own answers in front of the simulators: sample media, the networks' text limits in their own words,
 * and the one-time 429 of a post marked `sandbox:429`.
 */

/** A publish whose text holds this is answered once with a 429 and a 2-second wait. */
export const RATE_LIMIT_MARK = 'sandbox:429';

/** Sample media the sandbox serves at /sandbox/media/<name>, for posts to networks that need a photo or a video. */
export const SAMPLE_MEDIA: Record<string, { type: string; bytes: Buffer }> = {
  'sample.png': { type: 'image/png', bytes: PNG_BYTES },
  'sample.jpg': { type: 'image/jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(500), Buffer.from([0xff, 0xd9])]) },
  'sample.mp4': { type: 'video/mp4', bytes: Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(4000)]) },
};

/**
 * The networks' own text limits, answered in their own words (the adapters check first, so the service never sends
 * such a post; a client calling the simulators directly meets them as it would the network).
 */
const TEXT_LIMITS: Partial<Record<PlatformName, { path: RegExp; key: (b: Record<string, unknown>) => unknown; max: number; reply: FakeReply }>> = {
  telegram: { path: /^\/bot[^/]+\/sendMessage$/, key: (b) => b.text, max: 4096, reply: { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } } },
  bluesky: { path: /^\/xrpc\/com\.atproto\.repo\.createRecord$/, key: (b) => (b.record as Record<string, unknown> | undefined)?.text, max: 300, reply: { status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes' } } },
  mastodon: { path: /^\/api\/v1\/statuses$/, key: (b) => b.status, max: 500, reply: { status: 422, body: { error: 'Validation failed: Text character limit of 500 exceeded' } } },
  x: { path: /^\/2\/tweets$/, key: (b) => b.text, max: 280, reply: { status: 400, body: { title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.twitter.com/2/problems/invalid-request', errors: [{ message: 'text is longer than 280 characters' }] } } },
};

export function textLimitReply(network: PlatformName, relativeUrl: string, body: Buffer): FakeReply | undefined {
  const rule = TEXT_LIMITS[network];
  if (!rule || !rule.path.test(new URL(relativeUrl, 'http://sandbox').pathname)) return undefined;
  let json: unknown;
  try { json = JSON.parse(body.toString('utf8')); } catch { return undefined; }
  const text = json && typeof json === 'object' ? rule.key(json as Record<string, unknown>) : undefined;
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
