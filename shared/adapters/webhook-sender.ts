import { promises as dns } from 'node:dns';
import type { SendResult, WebhookSender } from '../ports/webhooks';
import { checkUrl, type HostLookup } from '../net/address-guard';
import { UnsafeTargetError } from '../ports/media-gateway';
import { pinnedRequest, PinnedRequestError } from '../net/pinned-request';
import { systemClock, type Clock } from '../ports/clock';
import { DELIVERY_TIMEOUT_MS, MAX_RESPONSE_BYTES, RESPONSE_EXCERPT_CHARS } from '../domain/webhooks';

export interface HttpWebhookSenderOptions {
  /** ALLOW_PRIVATE_TARGETS: lifts the address check and the https requirement (tests, local demos). */
  allowPrivate: boolean;
  /** Name resolution (tests inject it); default: the system resolver, every address. */
  lookup?: HostLookup;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Extra trusted CA (tests with a self-signed https receiver). */
  ca?: string | Buffer;
  /** Time source for duration_ms (default: the real clock). */
  clock?: Clock;
}

const systemLookup: HostLookup = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The WebhookSender over node:http(s). Every try: resolve the host once and check every address (https, public
 * only, decisions.md), then connect to the first checked address with the Host header and TLS server name of the
 * URL, never follow a redirect (a 3xx is a failed try), give up after 10 s, and read at most 16 KiB of the answer.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly lookup: HostLookup;
  constructor(private readonly opts: HttpWebhookSenderOptions) {
    this.lookup = opts.lookup ?? systemLookup;
  }

  async check(url: string): Promise<void> {
    await this.resolve(url);
  }

  /** The URL and the one address to connect to, after the checks. */
  private async resolve(raw: string): Promise<{ url: URL; address: string }> {
    const checked = await checkUrl(raw, { allowPrivate: this.opts.allowPrivate, lookup: this.lookup });
    let addresses = checked.addresses;
    if (addresses.length === 0) {
      // allowPrivate with a host name: checkUrl did not resolve it, so resolve here (still once per try)
      try {
        addresses = await this.lookup(checked.url.hostname.replace(/\.$/, ''));
      } catch (err) {
        throw new UnsafeTargetError('unresolvable', `The host name ${checked.url.hostname} could not be resolved`, err);
      }
      if (addresses.length === 0) throw new UnsafeTargetError('unresolvable', `The host name ${checked.url.hostname} could not be resolved`);
    }
    return { url: checked.url, address: addresses[0] };
  }

  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const clock = this.opts.clock ?? systemClock;
    const started = clock.now();
    const took = () => Math.max(0, clock.now() - started);
    let target: { url: URL; address: string };
    try {
      target = await this.resolve(rawUrl);
    } catch (err) {
      const message = err instanceof UnsafeTargetError ? err.message : String(err);
      return { ok: false, status_code: null, duration_ms: took(), error: `address check failed: ${message}` };
    }
    try {
      const res = await pinnedRequest({
        url: target.url, address: target.address, method: 'POST', headers, body,
        timeoutMs: this.opts.timeoutMs ?? DELIVERY_TIMEOUT_MS, maxResponseBytes: this.opts.maxResponseBytes ?? MAX_RESPONSE_BYTES, ca: this.opts.ca,
      });
      const excerpt = res.body.length ? res.body.toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS) : undefined;
      const base = { status_code: res.status, duration_ms: took(), ...(excerpt ? { response_excerpt: excerpt } : {}) };
      if (res.status >= 200 && res.status <= 299) return { ok: true, ...base, error: null };
      if (res.status >= 300 && res.status <= 399) {
        const location = typeof res.headers.location === 'string' ? ` to ${res.headers.location.slice(0, 200)}` : '';
        return { ok: false, ...base, error: `redirect${location} not followed: the endpoint must answer 2xx itself` };
      }
      return { ok: false, ...base, error: `the endpoint answered HTTP ${res.status}` };
    } catch (err) {
      if (err instanceof PinnedRequestError) {
        return { ok: false, status_code: null, duration_ms: took(), error: err.code === 'timeout' ? `timed out: ${err.message}` : err.message };
      }
      return { ok: false, status_code: null, duration_ms: took(), error: (err as Error)?.message ?? String(err) };
    }
  }
}
