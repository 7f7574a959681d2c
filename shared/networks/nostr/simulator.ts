import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { generateSecretKey } from 'nostr-tools/pure';
import { nsecEncode } from 'nostr-tools/nip19';
import type { SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export type RelayBehaviour =
  | { kind: 'accept' }
  | { kind: 'refuse'; message: string }
  | { kind: 'silent' };

/**
 * A loopback Nostr relay: a `ws` WebSocketServer on 127.0.0.1:0 that records every frame it receives and answers
 * ["EVENT", event] with ["OK", id, true|false, message] according to `behaviour` (or never, for 'silent'). Accepted
 * events are kept (`stored`) and ["REQ", sub, filter…] answers the stored events matching a filter (authors, kinds,
 * since, until, limit; newest first), then ["EOSE", sub], as NIP-01 relays do (never, when `behaviour` is 'silent').
 */
export class FakeRelay {
  readonly frames: unknown[][] = [];
  /** When each EVENT frame arrived (ISO), in order. */
  readonly eventTimes: string[] = [];
  connections = 0;
  /** Events this relay holds (accepted here, or seeded by a test). */
  readonly stored: Array<Record<string, unknown>> = [];
  behaviour: RelayBehaviour = { kind: 'accept' };
  private wss?: WebSocketServer;
  private mountedAt?: string;
  private eventWaiters: Array<() => void> = [];
  private closeWaiters: Array<() => void> = [];

  async start(): Promise<string> {
    this.wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => this.wss!.once('listening', () => resolve()));
    this.listen();
    return this.url;
  }

  /** Serves upgrades handed over by another HTTP server (the sandbox); `base` is its public ws:// URL. */
  mount(base: string): void {
    this.mountedAt = base;
    this.wss = new WebSocketServer({ noServer: true });
    this.listen();
  }

  /** Takes over one HTTP upgrade request (mounted mode). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss!.handleUpgrade(req, socket, head, (ws) => this.wss!.emit('connection', ws, req));
  }

  private listen(): void {
    this.wss!.on('connection', (socket: WebSocket) => {
      this.connections++;
      socket.on('close', () => { if (this.openClients === 0) this.wake('closeWaiters'); });
      socket.on('message', (data) => {
        let frame: unknown;
        try { frame = JSON.parse(String(data)); } catch { return; }
        if (!Array.isArray(frame)) return;
        this.frames.push(frame);
        if (frame[0] === 'REQ' && typeof frame[1] === 'string') {
          if (this.behaviour.kind === 'silent') return;
          for (const event of this.matching(frame.slice(2) as Array<Record<string, unknown>>)) socket.send(JSON.stringify(['EVENT', frame[1], event]));
          socket.send(JSON.stringify(['EOSE', frame[1]]));
          return;
        }
        if (frame[0] !== 'EVENT') return;
        this.eventTimes.push(new Date().toISOString());
        this.wake('eventWaiters');
        const id = (frame[1] as { id?: string }).id;
        const b = this.behaviour;
        if (b.kind === 'accept') socket.send(JSON.stringify(['NOTICE', 'welcome']));
        if (b.kind === 'accept' && !this.stored.some((e) => e.id === id)) this.stored.push(frame[1] as Record<string, unknown>);
        if (b.kind === 'accept') socket.send(JSON.stringify(['OK', id, true, '']));
        if (b.kind === 'refuse') socket.send(JSON.stringify(['OK', id, false, b.message]));
      });
    });
  }

  /** Stored events matching any of the filters, newest first, at most the smallest limit. */
  private matching(filters: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
    const fits = (e: Record<string, unknown>, f: Record<string, unknown>) =>
      (!Array.isArray(f.authors) || f.authors.includes(e.pubkey)) && (!Array.isArray(f.kinds) || f.kinds.includes(e.kind))
      && (typeof f.since !== 'number' || Number(e.created_at) >= f.since) && (typeof f.until !== 'number' || Number(e.created_at) <= f.until);
    const limit = Math.min(...filters.map((f) => (typeof f.limit === 'number' ? f.limit : Infinity)));
    return this.stored.filter((e) => filters.some((f) => fits(e, f))).sort((a, b) => Number(b.created_at) - Number(a.created_at)).slice(0, limit);
  }

  get url(): string {
    if (this.mountedAt) return this.mountedAt;
    const { port } = this.wss!.address() as AddressInfo;
    return `ws://127.0.0.1:${port}`;
  }

  /** Resolves when the next EVENT frame arrives. */
  nextEvent(): Promise<void> {
    return new Promise((resolve) => this.eventWaiters.push(resolve));
  }

  /** Resolves once the relay holds no open socket (every connection was closed). */
  allClosed(): Promise<void> {
    if (this.openClients === 0) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  private wake(which: 'eventWaiters' | 'closeWaiters') {
    const waiters = this[which];
    this[which] = [];
    for (const w of waiters) w();
  }

  /** Sockets the relay still holds open. */
  get openClients(): number {
    return this.wss ? [...this.wss.clients].filter((c) => c.readyState !== WebSocket.CLOSED).length : 0;
  }

  /** Events received (the second element of each ["EVENT", …] frame). */
  get events(): Array<Record<string, unknown>> {
    return this.frames.filter((f) => f[0] === 'EVENT').map((f) => f[1] as Record<string, unknown>);
  }

  reset(behaviour: RelayBehaviour = { kind: 'accept' }): void {
    this.frames.length = 0;
    this.eventTimes.length = 0;
    this.connections = 0;
    this.stored.length = 0;
    this.behaviour = behaviour;
  }

  async stop(): Promise<void> {
    if (!this.wss) return;
    for (const c of this.wss.clients) c.terminate();
    if (this.mountedAt) { this.wss.close(); return; }
    await new Promise<void>((resolve) => this.wss!.close(() => resolve()));
  }
}

/** The sandbox's relay, with the key its credentials sign with. */
class SandboxRelay extends FakeRelay {
  readonly nsec = nsecEncode(generateSecretKey());
}

const RELAY_PATH = '/sandbox/nostr';

/** Nostr in the sandbox of `npm start`: a relay taking WebSocket upgrades at /sandbox/nostr (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<SandboxRelay> = {
  create: () => new SandboxRelay(),
  servers: () => ({}),
  mounted: (fake, origin) => fake.mount(`${origin.replace(/^http/, 'ws')}${RELAY_PATH}`),
  env: (fake) => ({ NOSTR_DEFAULT_RELAYS: fake.url }),
  credentials: (fake) => ({ nsec: fake.nsec, relays: fake.url }),
  inbox: (fake) => fake.events.map((ev, i) => ({
    network: 'nostr', received_at: fake.eventTimes[i] ?? new Date().toISOString(), method: 'EVENT', path: RELAY_PATH,
    text: typeof ev.content === 'string' ? ev.content : null, title: null, media: [], reply: Array.isArray(ev.tags) && (ev.tags as unknown[][]).some((t) => t[0] === 'e'),
  })),
  upgrade: (fake, path, req, socket, head) => {
    if (path !== RELAY_PATH) return false;
    fake.upgrade(req, socket, head);
    return true;
  },
  stop: (fake) => fake.stop(),
};
