import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { promises as dns } from 'node:dns';
import { checkUrl, type HostLookup } from './address-guard';
import { UnsafeTargetError } from '../ports/media-gateway';
import { pinnedLookup, PinnedRequestError } from './pinned-request';

/**
 * A fetch that connects to addresses the address guard approved (no DNS-rebinding window between the check and the
 * connection). pinnedFetch sends one request to a given address with the URL's Host header and TLS server name and
 * answers a standard Response whose body streams (the caller caps it); guardedFetch is a drop-in `typeof fetch`
 * that checks every hop with checkUrl, pins the connection to the first checked address, and follows redirects
 * itself (each target re-checked) unless `redirect: 'manual'`.
 */

export interface PinnedFetchInit {
  /** Checked addresses of the URL's host; the connection goes to the first one. */
  addresses: string[];
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
  /** Extra trusted CA certificates (tests with a self-signed server). */
  ca?: string | Buffer;
}

/** Statuses whose Response must not carry a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** One request connected to `init.addresses[0]`; never follows redirects; rejects with signal.reason on abort. */
export function pinnedFetch(target: URL | string, init: PinnedFetchInit): Promise<Response> {
  const url = typeof target === 'string' ? new URL(target) : target;
  const address = init.addresses[0];
  if (!address) return Promise.reject(new UnsafeTargetError('unresolvable', `The host name ${url.hostname} could not be resolved`));
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:') return Promise.reject(new UnsafeTargetError('scheme', `Unsupported scheme ${url.protocol}`));
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const signal = init.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'node', ...lowerKeys(init.headers ?? {}) };
  if (init.body !== undefined) headers['content-length'] = String(init.body.length);
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const request = (isHttps ? https : http).request({
      method: init.method ?? 'GET', hostname, port: url.port || (isHttps ? 443 : 80), path: `${url.pathname}${url.search}`,
      headers, agent: false, lookup: pinnedLookup(address),
      ...(isHttps ? { servername: isIP(hostname) ? undefined : hostname, ...(init.ca ? { ca: init.ca } : {}) } : {}),
    }, (res) => {
      settled = true;
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599) {
        res.destroy();
        reject(new PinnedRequestError('bad_status', `unexpected HTTP status ${status}`));
        return;
      }
      const out = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        try { out.append(res.rawHeaders[i], res.rawHeaders[i + 1]); } catch { /* a header fetch would refuse: dropped */ }
      }
      if (NULL_BODY.has(status) || init.method === 'HEAD') {
        res.resume();
        signal?.removeEventListener('abort', onAbort);
        resolve(new Response(null, { status, statusText: res.statusMessage, headers: out }));
        return;
      }
      let body: Readable = res;
      const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
      const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip()
        : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
      if (decoder) {
        res.on('error', (err) => decoder.destroy(err));
        body = res.pipe(decoder);
      }
      body.on('close', () => signal?.removeEventListener('abort', onAbort));
      stream = body;
      resolve(new Response(Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage, headers: out }));
    });
    let stream: Readable | undefined;
    const onAbort = () => {
      const reason = signal?.reason;
      if (!settled) { settled = true; reject(reason); }
      stream?.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      request.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(new PinnedRequestError(err.code ?? 'error', err.message || err.code || 'request failed'));
    });
    if (init.body !== undefined) request.end(init.body);
    else request.end();
  });
}

export interface GuardedFetchOptions {
  /** ALLOW_PRIVATE_TARGETS: only the URL and scheme are checked; any resolved address is used. */
  allowPrivate: boolean;
  /** Name resolution (tests inject it); default: the system resolver, every address. */
  lookup?: HostLookup;
  /** Redirects followed when `redirect` is 'follow' (default 5). */
  maxRedirects?: number;
  /** Sends one hop to the checked addresses; defaults to pinnedFetch (tests wrap it to observe the addresses). */
  connect?: (url: URL, init: PinnedFetchInit) => Promise<Response>;
}

const systemLookup: HostLookup = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** checkUrl, then the addresses to connect to (resolved here once when allowPrivate left a host name unresolved). */
export async function checkedAddresses(raw: string, opts: GuardedFetchOptions): Promise<{ url: URL; addresses: string[] }> {
  const checked = await checkUrl(raw, { allowPrivate: opts.allowPrivate, lookup: opts.lookup });
  if (checked.addresses.length > 0) return checked;
  const host = checked.url.hostname.replace(/\.$/, '');
  let addresses: string[];
  try {
    addresses = await (opts.lookup ?? systemLookup)(host);
  } catch (err) {
    throw new UnsafeTargetError('unresolvable', `The host name ${checked.url.hostname} could not be resolved`, err);
  }
  if (addresses.length === 0) throw new UnsafeTargetError('unresolvable', `The host name ${checked.url.hostname} could not be resolved`);
  return { url: checked.url, addresses };
}

/**
 * A `typeof fetch` whose every hop passes checkUrl and connects to the checked address. The request is normalised
 * through the standard Request class (string, JSON, URLSearchParams, FormData and Blob bodies all work); redirects
 * follow the fetch rules (303, and 301/302 after POST, become a body-less GET; Authorization is dropped when the
 * origin changes) up to maxRedirects, `redirect: 'manual'` answers the 3xx and 'error' rejects.
 */
export function guardedFetch(opts: GuardedFetchOptions): typeof fetch {
  const maxRedirects = opts.maxRedirects ?? 5;
  const connect = opts.connect ?? pinnedFetch;
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? undefined;
    const mode = init?.redirect ?? 'follow';
    let method = request.method;
    let body: Buffer | undefined = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => { headers[key] = value; });
    let current = request.url;
    for (let hop = 0; ; hop++) {
      const { url, addresses } = await checkedAddresses(current, opts);
      const res = await connect(url, { addresses, method, headers, body, signal });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || res.status === 304 || !location || mode === 'manual') return res;
      await res.body?.cancel().catch(() => undefined);
      if (mode === 'error') throw new TypeError(`redirect to ${location.split('?')[0]} refused (redirect: 'error')`);
      if (hop >= maxRedirects) throw new TypeError(`more than ${maxRedirects} redirects`);
      const next = new URL(location, url);
      if (res.status === 303 ? method !== 'HEAD' : (res.status === 301 || res.status === 302) && method === 'POST') {
        method = 'GET';
        body = undefined;
        for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) delete headers[h];
      }
      if (next.origin !== url.origin) delete headers.authorization;
      current = next.href;
    }
  };
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
