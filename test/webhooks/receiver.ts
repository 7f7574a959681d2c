import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** A request as the receiver got it: raw bytes, as a real receiver must verify them. */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The TLS server name the client sent (https receivers). */
  servername?: string;
  at: number;
}

export interface ReceiverReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number;
  /** Never answer. */
  hang?: boolean;
  /** Drop the connection without an answer. */
  reset?: boolean;
}

/** The self-signed certificate for hooks.test / other.test (test/webhooks/fixtures, valid until 2126). */
export const TLS = {
  key: fs.readFileSync(path.join(__dirname, 'fixtures', 'receiver.key')),
  cert: fs.readFileSync(path.join(__dirname, 'fixtures', 'receiver.crt')),
};

/**
 * A loopback webhook receiver (http, or https with the fixture certificate) that records each request's raw body
 * and answers through `reply` (default 200 {"ok":true}); `waitFor(n)` resolves when n requests have arrived.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  reply: (req: Received) => ReceiverReply = () => ({ status: 200, body: '{"ok":true}' });
  private server?: http.Server;
  private readonly sockets = new Set<Socket>();
  private waiters: Array<{ n: number; resolve: () => void }> = [];

  constructor(private readonly tls = false) {}

  async start(): Promise<this> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const rec: Received = {
          method: req.method ?? '', path: req.url ?? '/', headers: req.headers, raw: Buffer.concat(chunks), at: Date.now(),
          servername: (req.socket as TLSSocket).servername || undefined,
        };
        this.received.push(rec);
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.n ? (w.resolve(), false) : true));
        const r = this.reply(rec);
        if (r.hang) return;
        if (r.reset) { req.socket.destroy(); return; }
        if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
        res.end(r.body ?? '');
      });
    };
    this.server = this.tls ? https.createServer({ key: TLS.key, cert: TLS.cert }, handler) : http.createServer(handler);
    this.server.keepAliveTimeout = 1000;
    this.server.on('connection', (s: Socket) => { this.sockets.add(s); s.on('close', () => this.sockets.delete(s)); });
    this.server.on('secureConnection', (s: Socket) => { this.sockets.add(s); s.on('close', () => this.sockets.delete(s)); });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number { return (this.server!.address() as AddressInfo).port; }
  /** http://127.0.0.1:<port><path> (or https://hooks.test:<port><path> for a TLS receiver). */
  url(pathname = '/hook'): string {
    return this.tls ? `https://hooks.test:${this.port}${pathname}` : `http://127.0.0.1:${this.port}${pathname}`;
  }

  waitFor(n: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver got ${this.received.length} of ${n} requests`)), timeoutMs);
      this.waiters.push({ n, resolve: () => { clearTimeout(timer); resolve(); } });
    });
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
