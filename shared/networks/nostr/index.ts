import WebSocket from 'ws';
import { finalizeEvent, getPublicKey } from 'nostr-tools/pure';
import { decode, noteEncode, npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { guarded, rejected } from '../http';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, Published, VerifiedAccount } from '../../ports/networks';
import { probeRelay, sendEvent, type RelayOutcome, type RelayTarget, type WebSocketConstructor } from './relays';
import { sandboxOrigin, type HostLookup } from '../../net/address-guard';
import { UnsafeTargetError } from '../../ports/media-gateway';
import { checkedAddresses } from '../../net/pinned-fetch';
import { pinnedLookup } from '../../net/pinned-request';
import { checkNostr, NOSTR_MAX_EVENT_BYTES, noteContent } from './limits';
import { nostrReadBack } from './read-back';

export { NOSTR_MAX_EVENT_BYTES };

export type { WebSocketConstructor } from './relays';

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
 * Nostr (NIP-01 kind-1 text notes over relay WebSockets; no server account).
 *
 * Credentials: nsec (NIP-19 `nsec1…`, or 64 hex characters; normalised to nsec1…), optional relays (comma-separated
 * wss:// URLs, at most 10, normalised; ws:// only with allowPrivate; the default relays are used when absent).
 * Every relay goes through the address guard before each connection (verify, publish, health): its host must
 * resolve only to public addresses, and the socket connects to the checked address (no DNS rebinding). At verify a
 * relay that fails the guard refuses the credentials without contacting anything; at publish it counts as
 * unreachable. Failure texts never carry what a relay's address answered at the socket level (refusal, status).
 *
 * verify: the key decodes (else rejected "not a valid nsec") and at least one relay accepts a WebSocket connection
 * before the deadline; handle = npub1…. publish: a kind-1 event {content: text + media URLs on new lines, tags: [],
 * created_at}, signed with nostr-tools' finalizeEvent, is sent as ["EVENT", event] to every relay in parallel; each
 * relay's ["OK", id, true|false, message] is awaited (relayTimeoutMs per relay within the deadline; once one relay
 * accepted, the others get graceAfterAcceptMs more). Every socket is closed before publish/verify returns.
 * Result: id = event id (hex), url = https://njump.me/<note1…>.
 *
 * Failures: ≥ 1 relay accepted (OK true, or "duplicate:") → ok. Else: any "rate-limited:" refusal → rate_limited
 * (60 s); a relay that got the event but gave no OK → timeout (the note may exist there); refusals → rejected with
 * the relays' messages; no relay reachable → transient. A stored key that no longer decodes → reauth.
 */
export function createNostrAdapter({
  defaultRelays = ['wss://relay.damus.io', 'wss://nos.lol', 'wss://relay.nostr.band'],
  WebSocketImpl = WebSocket,
  relayTimeoutMs = 8000,
  graceAfterAcceptMs = 2000,
  allowPrivate = false,
  lookup,
}: NostrOptions = {}): NetworkAdapter {
  const opts = { defaultRelays, Impl: WebSocketImpl, relayTimeoutMs, graceAfterAcceptMs, allowPrivate, lookup };
  return {
    name: 'nostr',
    verify: (ctx) => guarded(() => verify(opts, ctx)),
    check: checkNostr,
    publish: (content, ctx) => guarded(() => publish(opts, content, ctx)),
    readBack: nostrReadBack({
      Impl: WebSocketImpl, relayTimeoutMs, secretKey,
      relays: (ctx) => relayList(ctx.credentials.relays, defaultRelays, allowPrivate),
      targets: (relays) => relayTargets(opts, relays),
    }),
  };
}

interface Opts {
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
async function relayTargets(opts: Opts, relays: string[]): Promise<{ targets: RelayTarget[]; refused: string[] }> {
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

async function publish(opts: Opts, content: PublishContent, ctx: NetworkContext): Promise<Published | Failure> {
  const key = secretKey(ctx.credentials.nsec);
  if (!key) return { ok: false, kind: 'reauth', error: 'The stored nsec is not a valid Nostr secret key: connect Nostr again' };
  const relays = relayList(ctx.credentials.relays, opts.defaultRelays, opts.allowPrivate);
  if (!Array.isArray(relays)) return relays;
  const problem = checkNostr(content);
  if (problem) return problem;
  const { targets, refused } = await relayTargets(opts, relays);

  const event = finalizeEvent({ kind: 1, created_at: Math.floor(ctx.now() / 1000), tags: [], content: noteContent(content) }, key);

  // Once one relay accepted, the others get a grace period (on the context's clock), then their sockets are closed.
  const grace = new AbortController();
  let graceStarted = false;
  const local: NetworkContext = { ...ctx, signal: AbortSignal.any([ctx.signal, grace.signal]) };
  const sent = await Promise.all(targets.map((target) =>
    sendEvent(opts.Impl, target, event, local, opts.relayTimeoutMs).then((o) => {
      if (o.state === 'accepted' && !graceStarted) {
        graceStarted = true;
        void ctx.sleep(opts.graceAfterAcceptMs).then(() => grace.abort());
      }
      return o;
    })));
  grace.abort();
  const outcomes: RelayOutcome[] = [...sent, ...refused.map((relay) => ({ relay, state: 'unreachable' as const, message: 'not a public address' }))];

  if (outcomes.some((o) => o.state === 'accepted')) {
    return { ok: true, status: 'published', id: event.id, url: `https://njump.me/${noteEncode(event.id)}` };
  }
  const detail = describe(outcomes);
  if (outcomes.some((o) => o.state === 'refused' && o.message?.startsWith('rate-limited:'))) {
    return { ok: false, kind: 'rate_limited', retry_after: NOSTR_RATE_LIMIT_WAIT, error: `Nostr relays are rate limiting (${detail})` };
  }
  if (outcomes.some((o) => o.state === 'silent')) return { ok: false, kind: 'timeout', error: `No Nostr relay confirmed the note before the deadline (${detail})` };
  if (outcomes.some((o) => o.state === 'refused')) return rejected(`Every Nostr relay refused the note (${detail})`);
  return { ok: false, kind: 'transient', error: `No Nostr relay could be reached (${detail})` };
}

function describe(outcomes: RelayOutcome[]): string {
  return outcomes.map((o) => `${o.relay}: ${o.state}${o.message ? ` ${o.message.slice(0, 200)}` : ''}`).join('; ');
}
