import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a loopback fake received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: unknown;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** Object → JSON; string/Buffer sent as is. */
  body?: unknown;
  /** Never answer (to test timeouts). */
  hang?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
}

export type FakeHandler = (req: RecordedRequest) => FakeReply | Promise<FakeReply>;

/**
 * A loopback HTTP server that records every request and answers through a handler. Each network simulator builds on
 * it; tests assert the exact requests received (path, headers, body). It runs either on its own loopback port
 * (`start()`, the tests' fakes) or mounted under a path of another server (`mount()`, the sandbox of `npm start`,
 * where `url` is the mount's public base and paths arrive without the prefix).
 */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  private server?: http.Server;
  private mountedAt?: string;
  private readonly sockets = new Set<import('node:net').Socket>();
  private hangWaiters: Array<(req: RecordedRequest) => void> = [];
  handler: FakeHandler;

  constructor(handler: FakeHandler = () => ({ status: 404, body: { error: 'no route' } })) {
    this.handler = handler;
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => { void this.serve(req, res, Buffer.concat(chunks), req.url ?? '/'); });
    });
    this.server.on('connection', (s) => { this.sockets.add(s); s.on('close', () => this.sockets.delete(s)); });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  /** Serves from under another server: `base` is the public URL of the mount (e.g. http://localhost:3000/sandbox/x). */
  mount(base: string): void {
    this.mountedAt = base.replace(/\/$/, '');
  }

  /** Records one request (its path relative to this server) and answers it through the handler. */
  async serve(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, relativeUrl: string): Promise<void> {
    const text = body.toString('utf8');
    let json: unknown;
    try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
    const url = new URL(relativeUrl || '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, url, headers: req.headers, body, text, json };
    this.requests.push(recorded);
    let reply: FakeReply;
    try {
      reply = await this.handler(recorded);
    } catch (err) {
      reply = { status: 500, body: { error: String(err) } };
    }
    if (reply.hang) {
      const waiters = this.hangWaiters;
      this.hangWaiters = [];
      for (const w of waiters) w(recorded);
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    const headers: Record<string, string> = { ...reply.headers };
    let payload: string | Buffer = '';
    if (Buffer.isBuffer(reply.body) || typeof reply.body === 'string') payload = reply.body;
    else if (reply.body !== undefined) {
      payload = JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json';
    }
    res.writeHead(reply.status ?? 200, headers);
    res.end(payload);
  }

  /** Resolves with the next request left hanging (a `hang` reply), so a test can let the deadline pass right then. */
  nextHang(): Promise<RecordedRequest> {
    return new Promise((resolve) => this.hangWaiters.push(resolve));
  }

  get url(): string {
    if (this.mountedAt) return this.mountedAt;
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/**
 * The base of every HTTP network simulator: a FakeServer answering through `route()`, with the start, stop, url,
 * requests and reset that tests and the sandbox use. A simulator answers requests in `route()` and clears its own
 * state in an `override reset()` that calls `super.reset()`.
 */
export abstract class NetworkSimulator {
  readonly server = new FakeServer((req) => this.route(req));

  start(): Promise<string> { return this.server.start(); }
  stop(): Promise<void> { return this.server.stop(); }
  get url(): string { return this.server.url; }
  get requests(): RecordedRequest[] { return this.server.requests; }
  /** Forgets the requests received. */
  reset(): void { this.server.requests.length = 0; }

  protected abstract route(req: RecordedRequest): FakeReply | Promise<FakeReply>;
}
