import type { PlatformName } from '../../domain/platforms';
import type { PerPlatformDraft, PostPayload } from '../../domain/post';
import type { PostOptions, PublishContent } from '../../ports/networks';

/** What one network gets: the post's fields with that network's per_platform draft laid over them. */
export function contentFor(payload: PostPayload, platform: PlatformName, postId: string): PublishContent {
  const d = payload.per_platform[platform] ?? {};
  return {
    text: d.text ?? payload.text ?? '',
    title: d.title ?? payload.title,
    media: (d.media ?? payload.media).map((m) => ({ url: m.url, kind: m.kind, ...(m.alt !== undefined ? { alt: m.alt } : {}) })),
    thread: d.thread ?? [],
    first_comment: d.first_comment,
    privacy: payload.privacy,
    subreddit: payload.subreddit,
    send_key: `${postId}:${platform}`,
    ...optionsOf(d),
  };
}

/** The per_platform options of a draft (only those set), as the adapters read them. */
function optionsOf(d: PerPlatformDraft): { options?: PostOptions } {
  const options: PostOptions = {};
  if (d.reply_to !== undefined) options.reply_to = d.reply_to;
  if (d.quote !== undefined) options.quote = d.quote;
  if (d.link_card !== undefined) options.link_card = d.link_card;
  if (d.poll !== undefined) options.poll = d.poll;
  if (d.reel !== undefined) options.reel = d.reel;
  if (d.story !== undefined) options.story = d.story;
  if (d.privacy_level !== undefined) options.privacy_level = d.privacy_level;
  if (d.thumbnail_url !== undefined) options.thumbnail_url = d.thumbnail_url;
  if (d.playlist_id !== undefined) options.playlist_id = d.playlist_id;
  if (d.document !== undefined) options.document = d.document;
  if (d.board_id !== undefined) options.board_id = d.board_id;
  if (d.link !== undefined) options.link = d.link;
  if (d.event !== undefined) options.event = d.event;
  if (d.offer !== undefined) options.offer = d.offer;
  if (d.call_to_action !== undefined) options.call_to_action = d.call_to_action;
  if (d.topic_tag !== undefined) options.topic_tag = d.topic_tag;
  return Object.keys(options).length ? { options } : {};
}
