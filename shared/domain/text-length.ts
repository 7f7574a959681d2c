/**
 * THE length validator: how long a text is in each network's own units, and whether a post fits a network's text
 * rule. Each network's rule (its numbers) is in its folder (`TEXT_RULE` of shared/networks/<name>/limits.ts), read by
 * use cases through the NetworkLimits port; the counting is here. The network adapters' checks (POST /api/post's
 * per-network `text_too_long`) and the AI drafter both measure with it, so a draft the API produced is never refused
 * by the API.
 *
 * Units:
 * - graphemes: user-perceived characters (Intl.Segmenter): a ZWJ family, a flag or e + combining accent count 1;
 * - x_weighted: twitter-text v3 (below);
 * - mastodon: graphemes, every http(s) link counts 23, a remote mention @user@domain counts as @user;
 * - utf16: JavaScript string length (Telegram, LinkedIn, Facebook, TikTok, Slack, Reddit count this way);
 * - code_points: Unicode code points (Discord, YouTube titles, dev.to titles);
 * - utf8_bytes: encoded size (YouTube descriptions, article bodies);
 * - threads: graphemes, except that an emoji counts its UTF-8 bytes (Threads' own rule: "emojis are counted as the
 *   number of UTF-8 bytes"; docs/networks.md "Threads").
 */
export type LengthUnit = 'graphemes' | 'x_weighted' | 'mastodon' | 'utf16' | 'code_points' | 'utf8_bytes' | 'threads';

/**
 * A network's text rule: its unit and limits (each network's own, in its folder's limits.ts, with the sources of its
 * numbers in shared/reference/networks.md).
 */
export interface TextRule {
  unit: LengthUnit;
  /** Most units in one post's text. */
  limit: number;
  /** Telegram: a caption (the text of a post with media) is shorter. */
  captionLimit?: number;
  /** TikTok: a photo post's description may be longer than a video caption. */
  photoLimit?: number;
  /** Discord and Slack: a video goes as its link on a new line after the text, within the same limit. */
  appendsVideoLink?: boolean;
  /** A second ceiling in UTF-8 bytes (Bluesky's lexicon). */
  maxBytes?: number;
  /** Long content may go on as a thread of posts (X, Bluesky, Mastodon). */
  thread: boolean;
  /** A first comment under the post is possible (LinkedIn, X, Bluesky, Mastodon). */
  firstComment: boolean;
  /** The network shows a title (articles, videos, Reddit): its unit and limit (none known: no limit checked). */
  title?: { unit: LengthUnit; limit?: number };
  maxHashtags?: number;
}

export const X_URL_WEIGHT = 23;
export const MASTODON_URL_CHARACTERS = 23;

/** What the limit of a post depends on besides the network. */
export interface PostShape {
  /** Kinds of the post's media (empty: a text post). */
  media?: ReadonlyArray<'image' | 'video'>;
  /** The server's own limit, replacing the rule's (Mastodon: the instance's, stored at connect time). */
  instanceLimit?: number;
  /** The post's video link, where the network appends it to the text (Discord, Slack): the text gets the rest. */
  videoUrl?: string;
}

/** The limit of one post's text under `rule` (a network's text rule), in `rule.unit`. */
export function textLimit(rule: TextRule, shape: PostShape = {}): number {
  const media = shape.media ?? [];
  if (shape.instanceLimit) return shape.instanceLimit;
  if (rule.captionLimit !== undefined && media.length > 0) return rule.captionLimit;
  if (rule.photoLimit !== undefined && media.length > 0 && !media.includes('video')) return rule.photoLimit;
  if (rule.appendsVideoLink && shape.videoUrl) return Math.max(0, rule.limit - measure(rule.unit, `\n${shape.videoUrl}`));
  return rule.limit;
}

// ---- measuring

// made on first use: an Intl.Segmenter costs tens of milliseconds to build (ICU data), which a cold start that
// measures no text should not pay
let segmenter: Intl.Segmenter | undefined;
const graphemes = (): Intl.Segmenter => (segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));
const encoder = new TextEncoder();

function segmentCount(text: string): number {
  let n = 0;
  for (const _ of graphemes().segment(text)) n++;
  return n;
}

/**
 * Graphemes, exactly as Intl.Segmenter counts them, but segmenting only the non-ASCII runs (segmentation is slow):
 * printable ASCII characters are one grapheme each, except where a neighbouring non-ASCII character joins them
 * (e + combining accent, a prepend mark), so each non-ASCII run is segmented with one character of context on
 * each side, and the context is subtracted.
 */
export function graphemeLength(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let n = 0;
  let last = 0;
  for (const m of text.matchAll(/[^\x20-\x7e]+/g)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    n += start - last;
    const before = start > 0 ? 1 : 0;
    const after = end < text.length ? 1 : 0;
    n += segmentCount(text.slice(start - before, end + after)) - before - after;
    last = end;
  }
  return n + text.length - last;
}

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/*
 * X's weighted length, after twitter-text v3 (the library X's own clients count with):
 * - the text is NFC-normalised, then counted in code points, each weighing 1 or 2;
 * - weight 1: U+0000–U+10FF (Latin, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai, Georgian… and combining
 *   marks), U+2000–U+200D, U+2010–U+201F, U+2032–U+2037 (spaces, dashes, quotes, primes); everything else 2
 *   (CJK, Hangul, kana, most symbols);
 * - an emoji counts 2 as a whole, however many code points it is made of (skin tones, ZWJ families, flags, keycaps):
 *   here a grapheme with an Emoji_Presentation character, a variation selector 16 or regional indicators;
 * - every URL counts 23 (t.co wrapping): http(s):// links, www. links, and bare domains on common TLDs
 *   (twitter-text knows every TLD; a bare domain on a rarer TLD is counted as its text here);
 * - the limit is 280 (X Premium's long posts are not offered by the API to every app, so they are not assumed).
 */
export const LIGHT_RANGES: Array<[number, number]> = [[0x0000, 0x10ff], [0x2000, 0x200d], [0x2010, 0x201f], [0x2032, 0x2037]];
const TLDS = 'com|org|net|io|co|dev|app|ai|me|ly|gg|tv|xyz|info|biz|edu|gov|us|uk|de|fr|es|it|nl|jp|cn|ca|au|in|br|ru|ch|se|no|eu|to|so|sh|fm|be|at|pl|site|online|store|tech|blog|news';
/** A link as X finds one: with a scheme, www., or a bare domain on a common TLD. */
export const X_URL_RE = new RegExp(
  `(?:https?:\\/\\/[^\\s<>"]+|www\\.[^\\s<>"]+|(?<![\\w@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+(?:${TLDS})(?![\\w-])(?:[/?#][^\\s<>"]*)?)`,
  'giu',
);
/** Punctuation that ends a sentence, not the URL (twitter-text leaves it out of the link). */
export const X_TRAILING = /[.,;:!?'")\]]+$/u;
export const EMOJI = /\p{Emoji_Presentation}|\u{FE0F}|\p{Regional_Indicator}/u;

function weighOf(codePoint: number): number {
  if (codePoint <= 0x10ff) return 1;
  return LIGHT_RANGES.some(([lo, hi]) => codePoint >= lo && codePoint <= hi) ? 1 : 2;
}

function weighText(text: string): number {
  let n = 0;
  if (!EMOJI.test(text)) {
    for (const ch of text) n += weighOf(ch.codePointAt(0) ?? 0);
    return n;
  }
  for (const { segment } of graphemes().segment(text)) {
    if (EMOJI.test(segment)) { n += 2; continue; }
    for (const ch of segment) n += weighOf(ch.codePointAt(0) ?? 0);
  }
  return n;
}

/** The weighted length X counts against its 280 limit. */
export function xWeightedLength(text: string): number {
  const normal = text.normalize('NFC');
  let n = 0;
  let last = 0;
  for (const m of normal.matchAll(X_URL_RE)) {
    const url = m[0].replace(X_TRAILING, '');
    const start = m.index ?? 0;
    n += weighText(normal.slice(last, start)) + X_URL_WEIGHT;
    last = start + url.length;
  }
  return n + weighText(normal.slice(last));
}

export const MASTODON_URL_RE = /https?:\/\/[^\s<>"]+/g;
export const MASTODON_MENTION_RE = /(?<![=/\w])@([a-z0-9_]+(?:[.-]+[a-z0-9_]+)*)@[\w.-]+\w/gi;

/** Mastodon's count: links 23, a remote mention as its local part, the rest in graphemes. */
export function mastodonLength(text: string): number {
  const countable = text.replace(MASTODON_URL_RE, () => 'x'.repeat(MASTODON_URL_CHARACTERS)).replace(MASTODON_MENTION_RE, '@$1');
  return graphemeLength(countable);
}

/** Threads' count: graphemes, an emoji weighing its UTF-8 bytes. */
export function threadsLength(text: string): number {
  if (!EMOJI.test(text)) return graphemeLength(text);
  let n = 0;
  for (const { segment } of graphemes().segment(text)) n += EMOJI.test(segment) ? utf8Length(segment) : 1;
  return n;
}

export function measure(unit: LengthUnit, text: string): number {
  switch (unit) {
    case 'threads': return threadsLength(text);
    case 'graphemes': return graphemeLength(text);
    case 'x_weighted': return xWeightedLength(text);
    case 'mastodon': return mastodonLength(text);
    case 'utf16': return text.length;
    case 'code_points': return codePointLength(text);
    case 'utf8_bytes': return utf8Length(text);
  }
}

export const UNIT_WORDS: Record<LengthUnit, string> = {
  graphemes: 'characters',
  x_weighted: 'characters (a link counts 23; CJK characters and emoji count 2)',
  mastodon: 'characters (a link counts 23)',
  utf16: 'characters',
  code_points: 'characters',
  utf8_bytes: 'bytes (UTF-8)',
  threads: 'characters (an emoji counts its UTF-8 bytes, up to 4 or more)',
};

// ---- hashtags

/** A hashtag: # and letters of any script, marks, digits or _, not inside a word or a link. */
export const HASHTAG_RE = /(?<![\p{L}\p{N}_/&#])#[\p{L}\p{M}\p{N}_]+/gu;

/** The hashtags of a text, in order, with their #. */
export function hashtagsOf(text: string): string[] {
  return text.match(HASHTAG_RE) ?? [];
}

// ---- checking

/** A post's texts as the networks receive them (the first post, further thread posts, the first comment, a title). */
export interface PostTexts {
  text: string;
  thread?: readonly string[];
  first_comment?: string;
  title?: string;
}

export interface TextProblem {
  /** Which text: `text`, `thread.N` (1-based), `first_comment` or `title`. */
  field: string;
  kind: 'too_long' | 'too_many_bytes' | 'too_many_hashtags' | 'thread_unsupported' | 'comment_unsupported';
  length: number;
  limit: number;
  message: string;
}

/**
 * Every length problem of a post on `platform` under its text `rule` (empty when it fits): each text against the post
 * limit (and the byte ceiling where there is one), the title against the title limit, hashtags against the hashtag cap.
 */
export function textProblems(platform: string, rule: TextRule, post: PostTexts, shape: PostShape = {}): TextProblem[] {
  const limit = textLimit(rule, shape);
  const problems: TextProblem[] = [];
  const label = (field: string) => (field === 'text' ? 'the text' : field === 'first_comment' ? 'the first comment' : `thread post ${field.slice(7)}`);
  const texts: Array<[string, string]> = [['text', post.text]];
  if (post.thread?.length) {
    if (!rule.thread) problems.push({ field: 'thread', kind: 'thread_unsupported', length: post.thread.length, limit: 0, message: `${platform} has no threads` });
    else post.thread.forEach((t, i) => texts.push([`thread.${i + 1}`, t]));
  }
  if (post.first_comment !== undefined) {
    if (!rule.firstComment) problems.push({ field: 'first_comment', kind: 'comment_unsupported', length: 1, limit: 0, message: `${platform} takes no first comment` });
    else texts.push(['first_comment', post.first_comment]);
  }
  for (const [field, text] of texts) {
    const n = measure(rule.unit, text);
    if (n > limit) {
      problems.push({ field, kind: 'too_long', length: n, limit, message: `${platform} allows ${limit} ${UNIT_WORDS[rule.unit]} per post; ${label(field)} has ${n}${rule.unit === 'utf8_bytes' ? ' bytes' : ''}` });
      continue;
    }
    if (rule.maxBytes !== undefined) {
      const bytes = utf8Length(text);
      if (bytes > rule.maxBytes) problems.push({ field, kind: 'too_many_bytes', length: bytes, limit: rule.maxBytes, message: `${platform} allows ${rule.maxBytes} bytes per post; ${label(field)} has ${bytes} bytes` });
    }
  }
  if (rule.title?.limit !== undefined && post.title !== undefined) {
    const n = measure(rule.title.unit, post.title);
    if (n > rule.title.limit) {
      problems.push({ field: 'title', kind: 'too_long', length: n, limit: rule.title.limit, message: `${platform} allows ${rule.title.limit} ${UNIT_WORDS[rule.title.unit]} in a title; the title has ${n}${rule.title.unit === 'utf8_bytes' ? ' bytes' : ''}` });
    }
  }
  if (rule.maxHashtags !== undefined) {
    const tags = hashtagsOf(post.text).length;
    if (tags > rule.maxHashtags) problems.push({ field: 'text', kind: 'too_many_hashtags', length: tags, limit: rule.maxHashtags, message: `${platform} allows ${rule.maxHashtags} hashtags per caption; the text has ${tags}` });
  }
  return problems;
}
