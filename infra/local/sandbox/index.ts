import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { OAUTH_PLATFORMS, type PlatformName } from '../../../shared/domain/platforms';
import type { NetworkDescriptor } from '../../../shared/networks/descriptor';
import { NETWORKS } from '../../../shared/networks/network-list';
import type { FakeServer, RecordedRequest } from '../../../shared/networks/sandbox-kit/fake-server';
import { SAMPLE_MEDIA } from '../../../shared/networks/sandbox-kit/sample-media';
import type { InboxEntry, SandboxSimulator } from '../../../shared/networks/sandbox-kit/sandbox-simulator';
import { fieldsOf, inboxEntry, inboxPage } from './inbox';
import { markedText, RATE_LIMIT_MARK, send, textLimitReply, tooManyRequests } from './answers';
import { loadSimulator } from './load-simulator';

/**
 * The sandbox of `npm start` (decisions.md "Strict requests, the sandbox and contract fixes"): every registered network
 * simulated in process, at its real API paths, mounted under `<origin>/sandbox/<segment>/` of the local server itself
 * (one origin, the only private one the address guard lets through in sandbox mode). Each network's simulator is its
 * folder's `simulator.ts` (shared/networks/<name>/simulator.ts, a SandboxSimulator), loaded by the network's name in
 * the registry (load-simulator.ts): no list of simulators is written here. The simulators are the tests' network
 * fakes: they check credentials, answer in each network's own shapes, and record every request, which the inbox
 * (`GET /dev/sandbox`, `/dev/sandbox/inbox`) shows. A publish whose text holds `sandbox:429` is answered once with a
 * 429 and a 2-second wait, as a rate-limited network would; a text over the network's limit is refused in the
 * network's words (its simulator's `textLimit`, answers.ts); inbox.ts reads the recorded requests as posts.
 */

/** Environment variables per network, set only when the user set none of that network's own (explicit wins). */
type EnvGroup = Record<string, string>;

/** Requests kept per simulator (and so in the inbox): the newest ones. */
const KEEP_REQUESTS = 500;

/** One network's simulator as this sandbox runs it: its definition and the stand-in it built. */
interface Running { network: PlatformName; simulator: SandboxSimulator; fake: object }

export class Sandbox {
  /** Webhook deliveries to `<origin>/sandbox/receiver` (the local receiver of the README). */
  readonly receiver: Array<{ received_at: string; headers: Record<string, string>; body: string }> = [];
  private readonly limited = new Set<string>();
  /** The networks answered with the sandbox's 429 (one entry per refused request), oldest first. */
  readonly rateLimited: PlatformName[] = [];
  private readonly received = new Map<RecordedRequest, string>();
  private readonly running = new Map<PlatformName, Running>();
  /** Each HTTP server by the segment it answers under /sandbox/, with the network it simulates. */
  private readonly mounts = new Map<string, { server: FakeServer; run: Running }>();
  origin = '';

  /** Builds the simulator of every network of `networks` (the registry), each loaded by its name (`load`). */
  constructor(networks: readonly NetworkDescriptor[] = NETWORKS, load: (network: PlatformName) => SandboxSimulator = loadSimulator) {
    const building = new Set<PlatformName>();
    const build = (network: PlatformName): Running => {
      const done = this.running.get(network);
      if (done) return done;
      if (!networks.some((d) => d.name === network)) throw new Error(`No simulator of ${network}: it is not in the registry`);
      if (building.has(network)) throw new Error(`The simulators of ${[...building].join(', ')} need each other`);
      building.add(network);
      const simulator = load(network);
      const run: Running = { network, simulator, fake: simulator.create((peer, kind) => asKind(build(peer), kind)) };
      building.delete(network);
      this.running.set(network, run);
      return run;
    };
    for (const { name } of networks) build(name);
    // in the registry's order, whatever order peers were built in
    const ordered = networks.map((d) => this.running.get(d.name)!);
    this.running.clear();
    for (const run of ordered) {
      this.running.set(run.network, run);
      for (const [segment, server] of Object.entries(run.simulator.servers(run.fake))) {
        if (this.mounts.has(segment)) throw new Error(`Two simulators answer at /sandbox/${segment}: ${this.mounts.get(segment)!.run.network} and ${run.network}`);
        this.mounts.set(segment, { server, run });
      }
    }
  }

  /** The stand-in simulating `network`, checked to be a `kind` (e.g. `sandbox.fake('x', XFake)`). */
  fake<T extends object>(network: PlatformName, kind: abstract new (...args: never[]) => T): T {
    const run = this.running.get(network);
    if (!run) throw new Error(`No simulator of ${network} in this sandbox`);
    return asKind(run, kind);
  }

  /**
   * Serves this sandbox on a loopback port of its own and mounts it there (tests and benches; `npm start` mounts it in
   * the local server instead). A handler failure answers 500 with the error.
   */
  async listen(): Promise<{ origin: string; close: () => Promise<void> }> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: String(err) }));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.mount(origin);
    return { origin, close: () => { server.closeAllConnections(); return new Promise<void>((resolve) => server.close(() => resolve())); } };
  }

  /** Mounts every simulator under `<origin>/sandbox/` (origin: the local server's URL, e.g. http://localhost:3000). */
  mount(origin: string): void {
    this.origin = origin.replace(/\/$/, '');
    for (const [segment, { server }] of this.mounts) server.mount(`${this.origin}/sandbox/${segment}`);
    for (const { simulator, fake } of this.running.values()) simulator.mounted?.(fake, this.origin);
  }

  base(segment: string): string { return `${this.origin}/sandbox/${segment}`; }

  /** The environment of each network pointing at its simulator, with the sandbox client ids of the OAuth networks. */
  envGroups(): Record<string, EnvGroup> {
    return Object.fromEntries([...this.running.values()].map(({ network, simulator, fake }) => [network, simulator.env(fake, (s) => this.base(s))]));
  }

  /** Sample media for posts: a PNG, a JPEG and an MP4 served from the sandbox origin. */
  mediaUrl(name: 'sample.png' | 'sample.jpg' | 'sample.mp4'): string { return this.base(`media/${name}`); }

  /** Credentials each credential network's simulator accepts (anything else, e.g. starting with `bad`, is refused). */
  credentials(): Record<string, Record<string, string>> {
    const entries: Array<[string, Record<string, string>]> = [];
    for (const { network, simulator, fake } of this.running.values()) {
      if (simulator.credentials) entries.push([network, simulator.credentials(fake, (s) => this.base(s))]);
    }
    return Object.fromEntries(entries);
  }

  /** Everything the simulators received that is a post (or part of one), newest first. */
  inbox(): InboxEntry[] {
    const entries: InboxEntry[] = [];
    for (const { server, run } of this.mounts.values()) {
      for (const req of server.requests) {
        const fields = fieldsOf(req);
        const reading = run.simulator.read?.(req, fields);
        if (reading) entries.push(inboxEntry(run.network, req, reading, fields, this.received.get(req)));
      }
    }
    for (const { simulator, fake } of this.running.values()) entries.push(...(simulator.inbox?.(fake) ?? []));
    for (const d of this.receiver) {
      let type: string | null = null;
      try { type = (JSON.parse(d.body) as { type?: string }).type ?? null; } catch { /* not JSON */ }
      entries.push({ network: 'webhook', received_at: d.received_at, method: 'POST', path: '/sandbox/receiver', text: type, title: d.headers['service-event'] ?? null, media: [], reply: false });
    }
    return entries.sort((a, b) => (a.received_at < b.received_at ? 1 : a.received_at > b.received_at ? -1 : 0));
  }

  /** `/sandbox/<segment>/…`: the simulator's answer (or the sandbox's 429); `/sandbox/receiver` records a webhook. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const [, , segment = '', ...rest] = url.pathname.split('/');
    if (segment === 'receiver' && req.method === 'POST') {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      this.receiver.push({ received_at: new Date().toISOString(), headers, body: body.toString('utf8') });
      this.receiver.splice(0, Math.max(0, this.receiver.length - KEEP_REQUESTS));
      res.writeHead(204).end();
      return;
    }
    if (segment === 'media' && (req.method === 'GET' || req.method === 'HEAD')) {
      const file = SAMPLE_MEDIA[rest.join('/')];
      if (!file) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) }).end(req.method === 'HEAD' ? undefined : file.bytes);
      return;
    }
    const mounted = this.mounts.get(segment);
    if (!mounted) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `No simulated network at /sandbox/${segment}`, code: 'not_found' }));
      return;
    }
    const relative = `/${rest.join('/')}${url.search}`;
    const text = body.toString('utf8');
    const limitKey = `${segment}#${markedText(text)}`;
    if (text.includes(RATE_LIMIT_MARK) && !this.limited.has(limitKey)) {
      this.limited.add(limitKey);
      this.rateLimited.push(mounted.run.network);
      send(res, tooManyRequests(2));
      return;
    }
    const tooLong = textLimitReply(mounted.run.simulator.textLimit, relative, body);
    if (tooLong) { send(res, tooLong); return; }
    const { server } = mounted;
    const before = server.requests.length;
    await server.serve(req, res, body, relative);
    const recorded = server.requests[before];
    if (recorded) this.received.set(recorded, new Date().toISOString());
    // a long-running npm start keeps the newest requests of each simulator only
    for (const old of server.requests.splice(0, Math.max(0, server.requests.length - KEEP_REQUESTS))) this.received.delete(old);
  }

  /** A WebSocket upgrade for a simulator that takes one (the Nostr relay); false when no simulator takes the path. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    return [...this.running.values()].some(({ simulator, fake }) => simulator.upgrade?.(fake, path, req, socket, head) ?? false);
  }

  /** Stops what the simulators run beside the local server (the relay's sockets). */
  async stop(): Promise<void> {
    for (const { simulator, fake } of this.running.values()) await simulator.stop?.(fake);
  }

  /** `GET /dev/sandbox`: the mode, each network's simulator and accepted credentials, and the inbox. */
  describe() {
    const env = this.envGroups();
    return {
      mode: 'sandbox',
      origin: this.origin,
      inbox_url: `${this.origin}/dev/sandbox/inbox`,
      receiver_url: `${this.origin}/sandbox/receiver`,
      rate_limit_trigger: `a post whose text holds "${RATE_LIMIT_MARK}" is answered once with 429 and a 2 s wait`,
      credentials: this.credentials(),
      oauth: Object.fromEntries(OAUTH_PLATFORMS.filter((n) => this.running.has(n)).map((n) => [n, { client_id: env[n]?.[`${n.toUpperCase()}_CLIENT_ID`], sign_in: 'automatic (the simulator consents at once)' }])),
      inbox: this.inbox(),
    };
  }

  /** The inbox page: what each simulated network received, newest first. */
  inboxPage(): string {
    return inboxPage(this.inbox());
  }
}

function asKind<T extends object>(run: Running, kind: abstract new (...args: never[]) => T): T {
  if (!(run.fake instanceof kind)) throw new Error(`The ${run.network} simulator is a ${run.fake.constructor.name}, not a ${kind.name}`);
  return run.fake;
}
