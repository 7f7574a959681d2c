import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * One outbound HTTP(S) request connected to an address chosen beforehand (the one the address guard checked), so
 * a second DNS answer cannot redirect it (no DNS-rebinding window). The Host header and the TLS server name stay
 * the URL's host name, so certificates are verified as usual. Redirects are never followed (node:http does not),
 * the whole exchange has a deadline, and at most `maxResponseBytes` of the answer are read.
 */
export interface PinnedRequest {
  url: URL;
  /** The IP address to connect to (the URL's host resolved and checked by the caller). */
  address: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Deadline for the status line, from the start (connect and TLS included). */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Extra trusted CA certificates (tests with a self-signed receiver). */
  ca?: string | Buffer;
}

export interface PinnedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The first maxResponseBytes of the body (fewer if the deadline came first). */
  body: Buffer;
  truncated: boolean;
}

/** A transport failure: `code` is the socket error code, or 'timeout'. */
export class PinnedRequestError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'PinnedRequestError';
  }
}

/** A `lookup` that answers the pinned address whatever the host name (both callback forms of net.connect). */
export function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

export function pinnedRequest(req: PinnedRequest): Promise<PinnedResponse> {
  const isHttps = req.url.protocol === 'https:';
  const mod = isHttps ? https : http;
  const hostname = req.url.hostname.startsWith('[') ? req.url.hostname.slice(1, -1) : req.url.hostname;
  return new Promise<PinnedResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: PinnedRequestError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(err);
    };
    const options: https.RequestOptions = {
      method: req.method,
      hostname,
      port: req.url.port || (isHttps ? 443 : 80),
      path: `${req.url.pathname}${req.url.search}`,
      headers: { ...req.headers, ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) },
      agent: false,
      lookup: pinnedLookup(req.address),
      ...(isHttps ? { servername: isIP(hostname) ? undefined : hostname, ...(req.ca ? { ca: req.ca } : {}) } : {}),
    };
    const request = mod.request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
        res.destroy();
        request.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        const room = req.maxResponseBytes - size;
        if (chunk.length >= room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          truncated = chunk.length > room;
          done();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', done);
      // the status line arrived in time: at the deadline, whatever of the body was read counts
      atDeadline = () => { truncated = true; done(); };
    });
    let atDeadline = () => fail(new PinnedRequestError('timeout', `no answer within ${req.timeoutMs} ms`));
    const timer = setTimeout(() => atDeadline(), req.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => fail(new PinnedRequestError(err.code ?? 'error', describe(err))));
    if (req.body !== undefined) request.end(req.body);
    else request.end();
  });
}

function describe(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': return 'connection reset by the receiver';
    case 'EHOSTUNREACH': case 'ENETUNREACH': return 'host unreachable';
    case 'EPIPE': return 'connection closed by the receiver while sending';
    default:
      if (err.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(err.message)) return `TLS error: ${err.message}`;
      return err.message || err.code || 'request failed';
  }
}
