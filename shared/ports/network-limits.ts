import type { PlatformName } from '../domain/platforms';
import type { TextRule } from '../domain/text-length';
import type { Failure, MediaItem, PublishContent } from './networks';

/** Whether a network can take back (delete) and fix (edit) a published post through its API. */
export interface ManageFlags {
  delete: boolean;
  edit: boolean;
}

/** How a network's posts are named in reply_to and quote: whether a link or id names one, and the forms to send. */
export interface PostRefRule {
  names(ref: string): boolean;
  /** The accepted forms, as the 400's fix says them. */
  forms: string;
}

/** The per-network fields of a post (per_platform.<name>.<option>) that only some networks take. */
export type PostOption =
  | 'thread' | 'first_comment' | 'reply_to' | 'quote' | 'link_card' | 'poll' | 'reel' | 'story' | 'privacy_level'
  | 'thumbnail_url' | 'playlist_id' | 'document' | 'board_id' | 'link' | 'event' | 'offer' | 'call_to_action'
  | 'topic_tag';

/**
 * What use cases know of each network without its send code (posting, validating, scheduling, approvals, the
 * platform list, deletes and edits, AI drafts): text rules and limits in the network's units, media rules, post kinds, whether a post can
 * be deleted, edited or read back, and which links name a post there. Implemented from the network folders'
 * descriptors (shared/networks/descriptor-limits.ts); the same checks run in each adapter before it sends.
 */
export interface NetworkLimits {
  /** The network's checks that need no network call (length in its units, media fit, post kinds): undefined when the content fits. */
  checkContent(platform: PlatformName, content: PublishContent, credentials: Record<string, string>): Failure | undefined;
  /** Its text rule: the unit and limits THE length validator (shared/domain/text-length.ts) measures a post against. */
  textRule(platform: PlatformName): TextRule;
  /** Alt texts over the network's limit, then the type and size the media check learned from headers that the network does not take. */
  checkMedia(platform: PlatformName, media: MediaItem[]): Failure | undefined;
  /** Delete and edit support (both false where the network has neither). */
  manage(platform: PlatformName): ManageFlags;
  /** Whether a post whose worker died after sending can be looked for on the network (else it stays unknown). */
  readBack(platform: PlatformName): boolean;
  /** How the network's posts are named in reply_to and quote; undefined where it takes neither. */
  postRef(platform: PlatformName): PostRefRule | undefined;
  /** The networks that take `option`, in the registry's order. */
  optionNetworks(option: PostOption): PlatformName[];
}
