import type { LookupFunction } from 'node:net';
import type { NetworkContext } from '../../ports/networks';

/** The part of a WebSocket (the `ws` package's API) the relay code uses; `ws`'s WebSocket class fits it. */
export interface RelaySocket {
  readonly readyState: number;
  send(data: string): void;
  terminate(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}
/** `lookup` pins the connection to the address the guard checked (the `ws` package passes it to net/tls.connect). */
export type WebSocketConstructor = new (url: string, options?: { lookup?: LookupFunction; followRedirects?: false }) => RelaySocket;

/** A relay to open: its URL, and the checked address to connect to (absent only with ALLOW_PRIVATE_TARGETS). */
export interface RelayTarget {
  relay: string;
  lookup?: LookupFunction;
}

/** What one relay did with an event: accepted (OK true, or OK false "duplicate:"), refused (OK false), no OK in time, or no connection. */
export interface RelayOutcome {
  relay: string;
  state: 'accepted' | 'refused' | 'silent' | 'unreachable';
  message?: string;
}

/** Calls `step` once and settles when it resolves, the relay's timer fires, or the deadline aborts; always closes the socket. */
function session<T>(
  Impl: WebSocketConstructor, target: RelayTarget, ctx: NetworkContext, timeoutMs: number,
  onTimeout: () => T, onFailure: (why: string) => T,
  handlers: (ws: RelaySocket, finish: (value: T) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve) => {
    let ws: RelaySocket | undefined;
    let done = false;
    const finish = (value: T) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      try { ws?.terminate(); } catch { /* already closed */ }
      resolve(value);
    };
    const onAbort = () => finish(onTimeout());
    const timer = setTimeout(onAbort, Math.max(0, Math.min(timeoutMs, ctx.deadline - ctx.now())));
    if (ctx.signal.aborted) { onAbort(); return; }
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      ws = new Impl(target.relay, target.lookup ? { lookup: target.lookup, followRedirects: false } : { followRedirects: false });
    } catch {
      finish(onFailure('could not open a WebSocket'));
      return;
    }
    // An error listener stays attached so that a late error (after terminate) never goes unhandled. What failed
    // (refused, status code, TLS) is not passed on: the text must not tell what answered at an address.
    ws.on('error', () => finish(onFailure('no WebSocket connection')));
    ws.on('close', () => finish(onFailure('connection closed')));
    handlers(ws, finish);
  });
}

/** Settles "accepted" as soon as the relay accepts a WebSocket connection, else "unreachable" / "silent" (deadline). */
export function probeRelay(Impl: WebSocketConstructor, target: RelayTarget, ctx: NetworkContext, timeoutMs: number): Promise<RelayOutcome> {
  const relay = target.relay;
  return session<RelayOutcome>(Impl, target, ctx, timeoutMs,
    () => ({ relay, state: 'silent', message: 'no connection before the deadline' }),
    (why) => ({ relay, state: 'unreachable', message: why }),
    (ws, finish) => ws.on('open', () => finish({ relay, state: 'accepted' })));
}

/** Sends ["EVENT", event] and waits for the relay's ["OK", id, accepted, message]. */
export function sendEvent(
  Impl: WebSocketConstructor, target: RelayTarget, event: { id: string }, ctx: NetworkContext, timeoutMs: number,
): Promise<RelayOutcome> {
  const relay = target.relay;
  let sent = false;
  return session<RelayOutcome>(Impl, target, ctx, timeoutMs,
    () => ({ relay, state: 'silent', message: sent ? 'no OK before the deadline' : 'no connection before the deadline' }),
    (why) => ({ relay, state: sent ? 'silent' : 'unreachable', message: why }),
    (ws, finish) => {
      ws.on('open', () => {
        try {
          ws.send(JSON.stringify(['EVENT', event]));
          sent = true;
        } catch {
          finish({ relay, state: 'unreachable', message: 'send failed' });
        }
      });
      ws.on('message', (data) => {
        const msg = parseFrame(data);
        if (!msg || msg[0] !== 'OK' || msg[1] !== event.id) return;
        const message = typeof msg[3] === 'string' ? msg[3] : '';
        const accepted = msg[2] === true || message.startsWith('duplicate:');
        finish({ relay, state: accepted ? 'accepted' : 'refused', message });
      });
    });
}

/** What one relay answered a REQ: the events it holds for the filter (complete once it sent EOSE), or why it could not. */
export type RelayQuery =
  | { relay: string; state: 'answered'; events: Array<Record<string, unknown>> }
  | { relay: string; state: 'failed'; message: string };

/** Sends ["REQ", sub, filter], gathers ["EVENT", sub, event] until ["EOSE", sub], then ["CLOSE", sub] (NIP-01). */
export function queryEvents(
  Impl: WebSocketConstructor, target: RelayTarget, filter: Record<string, unknown>, ctx: NetworkContext, timeoutMs: number,
): Promise<RelayQuery> {
  const relay = target.relay;
  const sub = `rb${Math.random().toString(36).slice(2, 10)}`;
  const events: Array<Record<string, unknown>> = [];
  return session<RelayQuery>(Impl, target, ctx, timeoutMs,
    () => ({ relay, state: 'failed', message: 'no end of stored events before the deadline' }),
    (why) => ({ relay, state: 'failed', message: why }),
    (ws, finish) => {
      ws.on('open', () => {
        try { ws.send(JSON.stringify(['REQ', sub, filter])); } catch { finish({ relay, state: 'failed', message: 'send failed' }); }
      });
      ws.on('message', (data) => {
        const msg = parseFrame(data);
        if (!msg || msg[1] !== sub) return;
        if (msg[0] === 'EVENT' && typeof msg[2] === 'object' && msg[2] !== null) events.push(msg[2] as Record<string, unknown>);
        if (msg[0] === 'CLOSED') finish({ relay, state: 'failed', message: `closed: ${String(msg[2] ?? '').slice(0, 200)}` });
        if (msg[0] === 'EOSE') {
          try { ws.send(JSON.stringify(['CLOSE', sub])); } catch { /* the socket closes next anyway */ }
          finish({ relay, state: 'answered', events });
        }
      });
    });
}

function parseFrame(data: unknown): unknown[] | undefined {
  let text: string;
  if (typeof data === 'string') text = data;
  else if (Buffer.isBuffer(data)) text = data.toString('utf8');
  else if (Array.isArray(data)) text = Buffer.concat(data.filter((d): d is Buffer => Buffer.isBuffer(d))).toString('utf8');
  else if (data instanceof ArrayBuffer) text = Buffer.from(data).toString('utf8');
  else return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
