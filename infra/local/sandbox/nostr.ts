import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export type RelayBehaviour =
  | { kind: 'accept' }
  | { kind: 'refuse'; message: string }
  | { kind: 'silent' };

/**
 * A loopback Nostr relay: a `ws` WebSocketServer on 127.0.0.1:0 that records every frame it receives and answers
 * ["EVENT", event] with ["OK", id, true|false, message] according to `behaviour` (or never, for 'silent').
 */
export class FakeRelay {
  readonly frames: unknown[][] = [];
  connections = 0;
  behaviour: RelayBehaviour = { kind: 'accept' };
  private wss?: WebSocketServer;

  async start(): Promise<string> {
    this.wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => this.wss!.once('listening', () => resolve()));
    this.wss.on('connection', (socket: WebSocket) => {
      this.connections++;
      socket.on('message', (data) => {
        let frame: unknown;
        try { frame = JSON.parse(String(data)); } catch { return; }
        if (!Array.isArray(frame)) return;
        this.frames.push(frame);
        if (frame[0] !== 'EVENT') return;
        const id = (frame[1] as { id?: string }).id;
        const b = this.behaviour;
        if (b.kind === 'accept') socket.send(JSON.stringify(['NOTICE', 'welcome']));
        if (b.kind === 'accept') socket.send(JSON.stringify(['OK', id, true, '']));
        if (b.kind === 'refuse') socket.send(JSON.stringify(['OK', id, false, b.message]));
      });
    });
    return this.url;
  }

  get url(): string {
    const { port } = this.wss!.address() as AddressInfo;
    return `ws://127.0.0.1:${port}`;
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
    this.connections = 0;
    this.behaviour = behaviour;
  }

  async stop(): Promise<void> {
    if (!this.wss) return;
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((resolve) => this.wss!.close(() => resolve()));
  }
}

/** Polls until `cond` holds (or throws after `ms`): used to see that the adapter closed every socket. */
export async function eventually(cond: () => boolean, ms = 1000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
