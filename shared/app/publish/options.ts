import * as z from 'zod';
import { BadRequestError } from '../../domain/errors';
import type { PlatformName } from '../../domain/platforms';
import type { MediaRef } from '../../domain/post';
import type { NetworkLimits } from '../../ports/network-limits';

/**
 * per_platform options for the networks' own post kinds: the zod fields (strict, documented in OpenAPI
 * with an example) and the checks zod cannot express (which networks take an option, which options exclude each
 * other or media). Every refusal is a 400 invalid_request naming the network and the option.
 */

/** Threads' longest topic tag, in characters (the schema allows twice as many UTF-16 units; checkTopicTag counts). */
const TOPIC_TAG_MAX = 50;
const PostRef = z.string().trim().min(1).max(2048);
/** A local date, or date and time, at the business location (Google's Date and TimeOfDay carry no zone). */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?$/;

export const PostOptionFields = {
  reply_to: PostRef.optional().meta({
    description: 'Publish as a reply to an existing post (x, bluesky, mastodon, telegram, threads): its link or id. X: a status link or id; Bluesky: a ' +
      'bsky.app post link or at:// URI; Mastodon: a status link or id (a link from another server is resolved through your server); ' +
      'Telegram: a t.me message link or message id of the connected chat; Threads: the media id of the post (digits, as our results give it).',
    examples: ['https://bsky.app/profile/alice.bsky.social/post/3l6oveex3ii2l'],
  }),
  quote: PostRef.optional().meta({
    description: 'Quote an existing post (x, bluesky): its link or id. On Bluesky a quote may carry images or a video as well.',
    examples: ['https://x.com/jack/status/20'],
  }),
  link_card: z.union([z.literal(true), z.string().trim().min(1).max(2048)]).optional().meta({
    description: 'A link card (bluesky, app.bsky.embed.external): true = the first link of the text, or the page URL. The page\'s ' +
      'title, description and image (og: tags) are read through the address guard; not combinable with media or quote.',
    examples: [true, 'https://example.com/launch'],
  }),
  poll: z.strictObject({
    options: z.array(z.string().trim().min(1).max(25)).min(2).max(4),
    duration_minutes: z.number().int().min(5).max(10080),
  }).optional().meta({
    description: 'A poll (x): 2–4 options of up to 25 characters, open 5 minutes to 7 days. Not combinable with media or quote.',
    examples: [{ options: ['Tabs', 'Spaces'], duration_minutes: 1440 }],
  }),
  reel: z.literal(true).optional().meta({
    description: 'Publish the video as a Reel (facebook: the video_reels flow; 3–90 s, 9:16 recommended). Needs exactly one video.',
    examples: [true],
  }),
  privacy_level: z.enum(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']).optional().meta({
    description: 'TikTok\'s own privacy level (tiktok); it must be one the creator is offered (creator_info). An app that has not ' +
      'passed TikTok\'s audit is offered SELF_ONLY only. Without it, privacy maps public/unlisted/private to the nearest offered level.',
    examples: ['SELF_ONLY'],
  }),
  thumbnail_url: z.string().trim().min(1).max(2048).optional().meta({
    description: 'A custom thumbnail (youtube): a JPEG or PNG link of at most 2 MB, checked before the upload, set once the video exists. ' +
      'The channel must be allowed custom thumbnails (a verified channel). Pinterest: the cover image of a video Pin (cover_image_url).',
    examples: ['https://cdn.example.com/thumbs/launch.jpg'],
  }),
  playlist_id: z.string().trim().regex(/^[A-Za-z0-9_-]{10,64}$/).optional().meta({
    description: 'Add the uploaded video to this playlist of the channel (youtube, playlistItems.insert).',
    examples: ['PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf'],
  }),
  document: z.strictObject({
    url: z.string().trim().min(1).max(2048),
    title: z.string().trim().min(1).max(400),
  }).optional().meta({
    description: 'A document post (linkedin): a PDF shown as a swipeable carousel, with its title. The PDF is downloaded through the ' +
      'address guard (at most 50 MB) and uploaded to LinkedIn\'s Documents API. Not combinable with media.',
    examples: [{ url: 'https://cdn.example.com/decks/q3-results.pdf', title: 'Q3 results in 8 slides' }],
  }),
  board_id: z.string().trim().regex(/^[0-9]{1,40}$/).optional().meta({
    description: 'The board to pin to (pinterest); without it the Pin goes to the default board chosen when Pinterest was connected.',
    examples: ['549755885175'],
  }),
  link: z.string().trim().min(1).max(2048).optional().meta({
    description: 'The Pin\'s destination link (pinterest): where a click on the Pin leads.',
    examples: ['https://example.com/recipes/lemon-tart'],
  }),
  event: z.strictObject({
    title: z.string().trim().min(1).max(58).meta({ description: 'The event (or offer) title, at most 58 characters' }),
    start: z.string().regex(LOCAL_TIME).meta({ description: 'Local start at the location: YYYY-MM-DD or YYYY-MM-DDTHH:MM' }),
    end: z.string().regex(LOCAL_TIME).meta({ description: 'Local end at the location: YYYY-MM-DD or YYYY-MM-DDTHH:MM' }),
  }).optional().meta({
    description: 'An event post (google_business, topicType EVENT): its title and the local start and end at the location ' +
      '(YYYY-MM-DD, or YYYY-MM-DDTHH:MM). With offer it is the offer\'s title and validity.',
    examples: [{ title: 'Winter tasting night', start: '2026-12-18T18:00', end: '2026-12-18T22:00' }],
  }),
  offer: z.strictObject({
    coupon_code: z.string().trim().min(1).max(58).optional().meta({ description: 'The coupon code shown with the offer' }),
    redeem_url: z.string().trim().min(1).max(2048).optional().meta({ description: 'An http(s) link where the offer is redeemed online' }),
    terms: z.string().trim().min(1).max(5000).optional().meta({ description: "The offer's terms and conditions" }),
  }).optional().meta({
    description: 'An offer post (google_business, topicType OFFER): coupon code, online redemption link and terms. Needs event for its ' +
      'title and dates; an offer shows no call_to_action.',
    examples: [{ coupon_code: 'WINTER10', terms: 'One per table.' }],
  }),
  call_to_action: z.strictObject({
    type: z.enum(['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL']),
    url: z.string().trim().min(1).max(2048).optional(),
  }).optional().meta({
    description: 'The post\'s button (google_business): BOOK, ORDER, SHOP, LEARN_MORE, SIGN_UP with its url, or CALL (the location\'s phone, no url).',
    examples: [{ type: 'BOOK', url: 'https://example.com/book' }],
  }),
  topic_tag: z.string().trim().min(1).max(100).optional().meta({
    description: 'The post\'s one topic tag (threads, topic_tag on the post\'s container): 1–50 characters, no period (.) or ampersand (&); ' +
      'spaces are allowed. Not sent on carousel items or the first comment.',
    examples: ['Sourdough Baking'],
  }),
  story: z.literal(true).optional().meta({
    description: 'Publish the image or video as a Story (instagram: media_type STORIES; no caption is shown). Needs exactly one media item.',
    examples: [true],
  }),
};

const PostOptionsSchema = z.strictObject(PostOptionFields);
type DraftOptions = z.infer<typeof PostOptionsSchema>;

/** The option fields; each is a PostOption (a compile error otherwise), which the networks' descriptors say they take. */
const OPTIONS = Object.keys(PostOptionFields) as Array<keyof DraftOptions>;

const refuse = (name: PlatformName, option: string, message: string): never => {
  throw new BadRequestError(`per_platform.${name}.${option}: ${message}`, { details: { platforms: [name], option } });
};

const isHttpUrl = (s: string) => /^https?:\/\/[^\s]+$/.test(s);

/** A local `YYYY-MM-DD[THH:MM]` as a comparable number, or undefined when it is no real date. */
function localStamp(value: string): number | undefined {
  const [d, t = '00:00'] = value.split('T');
  const [y, m, day] = d.split('-').map(Number);
  const [h, min] = t.split(':').map(Number);
  const at = Date.UTC(y, m - 1, day, h, min);
  const back = new Date(at);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== day || h > 23 || min > 59) return undefined;
  return at;
}

/** Google Business Profile's own combinations: an offer needs its event; CTA urls; an event that ends after it starts. */
function checkLocalPost(name: PlatformName, draft: DraftOptions): void {
  if (draft.offer !== undefined && draft.event === undefined) refuse(name, 'offer', 'an offer needs event {title, start, end} for its title and validity');
  if (draft.offer !== undefined && draft.call_to_action !== undefined) refuse(name, 'call_to_action', 'an offer post shows no button: drop call_to_action, or send an event post');
  if (draft.offer?.redeem_url !== undefined && !isHttpUrl(draft.offer.redeem_url)) refuse(name, 'offer', 'redeem_url must be an http(s) link');
  const cta = draft.call_to_action;
  if (cta && cta.type === 'CALL' && cta.url !== undefined) refuse(name, 'call_to_action', 'CALL uses the location\'s phone number: drop url');
  if (cta && cta.type !== 'CALL' && (cta.url === undefined || !isHttpUrl(cta.url))) refuse(name, 'call_to_action', `${cta.type} needs url, an http(s) link`);
  if (draft.event) {
    const start = localStamp(draft.event.start);
    const end = localStamp(draft.event.end);
    if (start === undefined) refuse(name, 'event', `start ${draft.event.start} is not a real date`);
    if (end === undefined) refuse(name, 'event', `end ${draft.event.end} is not a real date`);
    if (end! < start!) refuse(name, 'event', 'the event ends before it starts');
  }
}

/** Threads' rules for a topic tag: 1–50 characters (code points), no period or ampersand. */
function checkTopicTag(name: PlatformName, tag: string): void {
  const length = [...tag].length;
  if (length > TOPIC_TAG_MAX) refuse(name, 'topic_tag', `a Threads topic tag has 1 to ${TOPIC_TAG_MAX} characters; this one has ${length}`);
  if (/[.&]/.test(tag)) refuse(name, 'topic_tag', 'a Threads topic tag cannot contain a period (.) or an ampersand (&)');
}

/** Checks the options of one network's draft; `media` is what that network will publish. */
export function checkOptions(networks: Pick<NetworkLimits, 'postRef' | 'optionNetworks'>, name: PlatformName, draft: DraftOptions, media: MediaRef[]): void {
  for (const option of OPTIONS) {
    const takers = networks.optionNetworks(option);
    if (draft[option] !== undefined && !takers.includes(name)) refuse(name, option, `supported on ${takers.join(', ')} only`);
  }
  for (const option of ['reply_to', 'quote'] as const) {
    const ref = draft[option];
    const rule = networks.postRef(name);
    if (ref !== undefined && rule && !rule.names(ref)) refuse(name, option, `not a ${name} post: send ${rule.forms}`);
  }
  if (draft.link_card !== undefined) {
    if (media.length) refuse(name, 'link_card', 'a Bluesky post shows either media or a link card: drop the media or the card');
    if (draft.quote !== undefined) refuse(name, 'link_card', 'a Bluesky post shows either a quoted post or a link card, not both');
    if (typeof draft.link_card === 'string' && !/^https?:\/\/[^\s]+$/.test(draft.link_card)) refuse(name, 'link_card', 'send true or an http(s) page URL');
  }
  if (draft.document !== undefined) {
    if (media.length) refuse(name, 'document', 'a LinkedIn document post carries the document only: drop the media');
    if (!/^https?:\/\/[^\s]+$/.test(draft.document.url)) refuse(name, 'document', 'send an http(s) link to the PDF');
  }
  if (draft.thumbnail_url !== undefined && !/^https?:\/\/[^\s]+$/.test(draft.thumbnail_url)) refuse(name, 'thumbnail_url', 'send an http(s) link to a JPEG or PNG image');
  if (draft.link !== undefined && !isHttpUrl(draft.link)) refuse(name, 'link', 'send an http(s) link');
  if (name === 'google_business') checkLocalPost(name, draft);
  if (draft.topic_tag !== undefined) checkTopicTag(name, draft.topic_tag);
  for (const option of ['reel', 'story'] as const) {
    if (draft[option] === undefined) continue;
    if (media.length !== 1) refuse(name, option, `a ${option} carries exactly one ${option === 'reel' ? 'video' : 'image or video'}; this post has ${media.length} media items`);
    if (option === 'reel' && media[0].kind !== 'video') refuse(name, option, 'a reel is a video: send video_url or a video media item');
  }
  if (draft.poll !== undefined) {
    if (media.length) refuse(name, 'poll', 'an X post carries either a poll or media, not both');
    if (draft.quote !== undefined) refuse(name, 'poll', 'an X post carries either a poll or a quoted post, not both');
    const lower = draft.poll.options.map((o) => o.toLowerCase());
    if (new Set(lower).size !== lower.length) refuse(name, 'poll', 'the poll options must differ');
  }
}
