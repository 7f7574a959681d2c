import { platform } from '../../domain/platforms';
import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for nostr; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf8_bytes', limit: 64 * 1024, thread: false, firstComment: false };

/* What a Nostr note takes, checked before sending (the API side's pre-check and the adapter share it). */

/** strfry's default events.maxEventSize (damus.io and nos.lol run strfry): 65,536 bytes of event JSON. */
export const NOSTR_MAX_EVENT_BYTES = 65_536;

/** The note's content: the text, then each media URL on its own line. */
export function noteContent(content: PublishContent): string {
  return [content.text, ...content.media.map((m) => m.url)].filter((s) => s.trim()).join('\n');
}

export function checkNostr(content: PublishContent): Failure | undefined {
  const max = platform('nostr').max_media;
  if (content.media.length > max) return rejected(`Nostr notes here carry at most ${max} media link; got ${content.media.length}`, 'bad_media');
  const skeleton = { id: '0'.repeat(64), pubkey: '0'.repeat(64), created_at: 1_700_000_000, kind: 1, tags: [], content: noteContent(content), sig: '0'.repeat(128) };
  const bytes = Buffer.byteLength(JSON.stringify(skeleton), 'utf8');
  if (bytes > NOSTR_MAX_EVENT_BYTES) {
    return rejected(`Nostr relays accept events up to ${NOSTR_MAX_EVENT_BYTES} bytes (strfry default); this note makes a ${bytes}-byte event`, 'text_too_long');
  }
  return undefined;
}
