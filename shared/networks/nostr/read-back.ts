import { getPublicKey } from 'nostr-tools/pure';
import { noteEncode } from 'nostr-tools/nip19';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { CLOCK_SKEW_MS, readingBack, sameText } from '../read-back-match';
import { noteContent } from './limits';
import { queryEvents, type RelayTarget, type WebSocketConstructor } from './relays';

/** Most events one relay is asked for; a relay answering that many does not prove the window complete. */
const LIMIT = 100;

export interface NostrReadBackDeps {
  Impl: WebSocketConstructor;
  relayTimeoutMs: number;
  secretKey(nsec: string | undefined): Uint8Array | undefined;
  relays(ctx: NetworkContext): string[] | Failure;
  /** The relays' checked addresses (the address guard), and those refused. */
  targets(relays: string[]): Promise<{ targets: RelayTarget[]; refused: string[] }>;
}

/**
 * Nostr read-back: every relay of the connection gets ["REQ", sub, {authors: [our pubkey], kinds: [1], since, until,
 * limit: 100}] (the window ± clock skew, in seconds) and answers its stored events, then EOSE. A kind-1 note whose
 * content is the note we build for this post is ours: found on any relay → found (id, njump link). Absent only when
 * every relay answered EOSE without it (and below the limit); a relay that failed or was refused → unreadable.
 */
export function nostrReadBack(deps: NostrReadBackDeps): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('nostr', async () => {
    const key = deps.secretKey(ctx.credentials.nsec);
    if (!key) return { state: 'unreadable', reason: 'nostr: the stored nsec is not a valid key' };
    const relays = deps.relays(ctx);
    if (!Array.isArray(relays)) return { state: 'unreadable', reason: `nostr: ${relays.error}` };
    const { targets, refused } = await deps.targets(relays);
    const filter = {
      authors: [getPublicKey(key)], kinds: [1], limit: LIMIT,
      since: Math.floor((q.since - CLOCK_SKEW_MS) / 1000), until: Math.ceil((q.until + CLOCK_SKEW_MS) / 1000),
    };
    const note = noteContent(content);
    const answers = await Promise.all(targets.map((t) => queryEvents(deps.Impl, t, filter, ctx, deps.relayTimeoutMs)));
    for (const a of answers) {
      if (a.state !== 'answered') continue;
      const hit = a.events.find((e) => e.kind === 1 && typeof e.content === 'string' && (sameText(e.content, note) || sameText(e.content, q.text)));
      if (hit && typeof hit.id === 'string') return { state: 'found', id: hit.id, url: `https://njump.me/${noteEncode(hit.id)}` };
    }
    const unsure = [
      ...answers.flatMap((a) => (a.state === 'failed' ? [`${a.relay}: ${a.message}`] : a.events.length >= LIMIT ? [`${a.relay}: ${LIMIT} or more notes in the window`] : [])),
      ...refused.map((r) => `${r}: not a public address`),
    ];
    return unsure.length ? { state: 'unreadable', reason: `nostr: not every relay could be read (${unsure.join('; ')})` } : { state: 'absent' };
  });
}
