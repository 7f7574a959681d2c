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
