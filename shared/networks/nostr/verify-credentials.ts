import WebSocket from 'ws';
import { getPublicKey } from 'nostr-tools/pure';
import { decode, npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { guarded, rejected } from '../http';
import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { probeRelay, type RelayOutcome, type RelayTarget, type WebSocketConstructor } from './relays';
import { sandboxOrigin, type HostLookup } from '../../net/address-guard';
import { UnsafeTargetError } from '../../ports/media-gateway';
import { checkedAddresses } from '../../net/pinned-fetch';
import { pinnedLookup } from '../../net/pinned-request';

/** Wait applied when relays answer "rate-limited:" and none accepted (NIP-01 gives no wait). */
export const NOSTR_RATE_LIMIT_WAIT = 60;
/** Most relays one connection may list. */
export const NOSTR_MAX_RELAYS = 10;

export interface NostrOptions {
  defaultRelays?: string[];
  /** WebSocket class with the `ws` package's API (the default). */
  WebSocketImpl?: WebSocketConstructor;
  /** Longest wait for one relay's answer, within the context deadline. */
  relayTimeoutMs?: number;
  /** Once one relay has accepted, how much longer the others may take before their sockets are closed. */
  graceAfterAcceptMs?: number;
  /** ALLOW_PRIVATE_TARGETS: ws:// and private addresses allowed (tests, local demos). Default false: wss:// to public addresses only. */
  allowPrivate?: boolean;
  /** Name resolution for the address check (tests inject it). */
  lookup?: HostLookup;
}

/**
 * Nostr's credential check: the key decodes (else rejected "not a valid nsec") and at least one relay (each through
 * the address guard) accepts a WebSocket connection before the deadline; handle = npub1….
 */
export function createNostrVerifier(options: NostrOptions | Opts = {}): NetworkVerifier {
  const opts = withDefaults(options);
  return { name: 'nostr', verify: (ctx) => guarded(() => verify(opts, ctx)) };
}

/** The options with their defaults (the adapter and the verifier share them). */
export function withDefaults(options: NostrOptions | Opts): Opts {
  if ('Impl' in options) return options;
  const {
    defaultRelays = ['wss://relay.damus.io', 'wss://nos.lol', 'wss://relay.nostr.band'], WebSocketImpl = WebSocket,
    relayTimeoutMs = 8000, graceAfterAcceptMs = 2000, allowPrivate = false, lookup,
  } = options;
  return { defaultRelays, Impl: WebSocketImpl, relayTimeoutMs, graceAfterAcceptMs, allowPrivate, lookup };
}

/** The options with their defaults. */
export interface Opts {
  defaultRelays: string[]; Impl: WebSocketConstructor; relayTimeoutMs: number; graceAfterAcceptMs: number;
  allowPrivate: boolean; lookup?: HostLookup;
}

/** The secret key bytes of an nsec1… or 64-hex credential; undefined when it is not a valid key. */
export function secretKey(nsec: string | undefined): Uint8Array | undefined {
  const value = (nsec ?? '').trim();
  let key: Uint8Array | undefined;
  if (/^[0-9a-f]{64}$/i.test(value)) key = Uint8Array.from(Buffer.from(value, 'hex'));
  else if (value.startsWith('nsec1')) {
    try {
      const decoded = decode(value);
      if (decoded.type === 'nsec') key = decoded.data;
    } catch { /* not bech32 */ }
  }
  if (!key || key.length !== 32) return undefined;
  try { getPublicKey(key); } catch { return undefined; }
  return key;
}

/**
 * The relay list from credentials.relays (comma/space separated), else the defaults; a Failure names a bad URL.
 * wss:// only (ws:// too with allowPrivate), no user:pass@, at most NOSTR_MAX_RELAYS.
 */
export function relayList(raw: string | undefined, defaults: string[], allowPrivate = false): string[] | Failure {
  const items = (raw ?? '').split(/[\s,]+/).map((s) => s.trim()).filter((s) => s);
  if (!items.length) return [...defaults];
  const wanted = allowPrivate ? 'a ws:// or wss:// URL' : 'a wss:// URL';
  const relays: string[] = [];
  for (const item of items) {
    let url: URL;
    try { url = new URL(item); } catch { return rejected(`relays: "${item.slice(0, 100)}" is not ${wanted}`); }
    if (url.protocol !== 'wss:' && !(url.protocol === 'ws:' && (allowPrivate || isSandboxRelay(url)))) return rejected(`relays: "${item.slice(0, 100)}" is not ${wanted}`);
    if (url.username || url.password) return rejected(`relays: "${url.host}" must not carry a user name or password`);
    const normal = url.pathname === '/' && !url.search ? `${url.protocol}//${url.host}` : url.href;
    if (!relays.includes(normal)) relays.push(normal);
  }
  if (relays.length > NOSTR_MAX_RELAYS) return rejected(`relays: at most ${NOSTR_MAX_RELAYS} relays per connection (got ${relays.length})`);
  return relays;
}

/** The local sandbox's simulated relay (sandbox mode only): the one ws:// relay the address guard lets through. */
function isSandboxRelay(url: URL): boolean {
  const sandbox = sandboxOrigin();
  return !!sandbox && url.origin.replace(/^ws/, 'http') === sandbox && url.pathname.startsWith('/sandbox/');
}

/** The relay's checked address to connect to; an UnsafeTargetError when it is not a public address (nothing contacted). */
async function relayTarget(opts: Opts, relay: string): Promise<RelayTarget> {
  const asHttp = relay.replace(/^ws(s?):/i, 'http$1:');
  const { addresses } = await checkedAddresses(asHttp, { allowPrivate: opts.allowPrivate, lookup: opts.lookup });
  return { relay, lookup: pinnedLookup(addresses[0]) };
}

/** Every relay's target, or the relays that failed the address guard. */
export async function relayTargets(opts: Opts, relays: string[]): Promise<{ targets: RelayTarget[]; refused: string[] }> {
  const targets: RelayTarget[] = [];
  const refused: string[] = [];
  await Promise.all(relays.map(async (relay) => {
    try {
      targets.push(await relayTarget(opts, relay));
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      refused.push(relay);
    }
  }));
  targets.sort((a, b) => relays.indexOf(a.relay) - relays.indexOf(b.relay));
  return { targets, refused };
}

async function verify(opts: Opts, ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
  const key = secretKey(ctx.credentials.nsec);
  if (!key) return rejected('nsec is not a valid nsec (expected nsec1… or 64 hex characters)');
  const relays = relayList(ctx.credentials.relays, opts.defaultRelays, opts.allowPrivate);
  if (!Array.isArray(relays)) return relays;
  const { targets, refused } = await relayTargets(opts, relays);
  if (refused.length) return rejected(`relays: ${refused.map((r) => r.slice(0, 100)).join(', ')} ${refused.length > 1 ? 'are' : 'is'} not a public address`);

  const first = new AbortController();
  const local: NetworkContext = { ...ctx, signal: AbortSignal.any([ctx.signal, first.signal]) };
  const outcomes = await Promise.all(targets.map((target) =>
    probeRelay(opts.Impl, target, local, opts.relayTimeoutMs).then((o) => { if (o.state === 'accepted') first.abort(); return o; })));
  if (!outcomes.some((o) => o.state === 'accepted')) {
    const detail = describe(outcomes);
    if (outcomes.some((o) => o.state === 'silent')) return { ok: false, kind: 'timeout', error: `No Nostr relay answered before the deadline (${detail})` };
    return { ok: false, kind: 'transient', error: `No Nostr relay could be reached (${detail})` };
  }
  const credentials: Record<string, string> = { ...ctx.credentials, nsec: nsecEncode(key) };
  if ((ctx.credentials.relays ?? '').trim()) credentials.relays = relays.join(',');
  return { ok: true, handle: npubEncode(getPublicKey(key)), credentials };
}

export function describe(outcomes: RelayOutcome[]): string {
  return outcomes.map((o) => `${o.relay}: ${o.state}${o.message ? ` ${o.message.slice(0, 200)}` : ''}`).join('; ');
}
