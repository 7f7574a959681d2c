import WebSocket from 'ws';
import { finalizeEvent } from 'nostr-tools/pure';
import { noteEncode } from 'nostr-tools/nip19';
import { guarded, rejected } from '../http';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, Published } from '../../ports/networks';
import { sendEvent, type RelayOutcome } from './relays';
import { checkNostr, NOSTR_MAX_EVENT_BYTES, noteContent } from './limits';
import { nostrReadBack } from './read-back';
import { createNostrVerifier, describe, NOSTR_MAX_RELAYS, NOSTR_RATE_LIMIT_WAIT, relayList, relayTargets, secretKey, type NostrOptions, type Opts } from './verify-credentials';

export { NOSTR_MAX_EVENT_BYTES };

export type { WebSocketConstructor } from './relays';
export { NOSTR_MAX_RELAYS, NOSTR_RATE_LIMIT_WAIT, relayList, secretKey, type NostrOptions };

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
    verify: createNostrVerifier(opts).verify,
    check: checkNostr,
    publish: (content, ctx) => guarded(() => publish(opts, content, ctx)),
    readBack: nostrReadBack({
      Impl: WebSocketImpl, relayTimeoutMs, secretKey,
      relays: (ctx) => relayList(ctx.credentials.relays, defaultRelays, allowPrivate),
      targets: (relays) => relayTargets(opts, relays),
    }),
  };
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
