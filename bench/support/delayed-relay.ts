import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/**
 * A loopback Nostr relay that accepts every ["EVENT", event] with ["OK", id, true, ""] after `delayMs` (settable
 * between runs). shared/networks/nostr/simulator.ts answers at once and has no delay hook, hence this one for the benches.
 * `received` records when each EVENT arrived (Date.now()) and its content.
 */
export class DelayedRelay {
  delayMs = 0;
  readonly received: Array<{ at: number; content: string }> = [];
  private wss?: WebSocketServer;

  async start(): Promise<string> {
    this.wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => this.wss!.once('listening', () => resolve()));
    this.wss.on('connection', (socket: WebSocket) => {
      socket.on('error', () => undefined);
      socket.on('message', (data) => {
        let frame: unknown;
        try { frame = JSON.parse(String(data)); } catch { return; }
        if (!Array.isArray(frame) || frame[0] !== 'EVENT') return;
        const event = frame[1] as { id?: string; content?: string };
        this.received.push({ at: Date.now(), content: String(event.content ?? '') });
        const id = event.id;
        const answer = () => { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(['OK', id, true, ''])); };
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    return this.url;
  }

  get url(): string {
    const { port } = this.wss!.address() as AddressInfo;
    return `ws://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    if (!this.wss) return;
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((resolve) => this.wss!.close(() => resolve()));
  }
}
