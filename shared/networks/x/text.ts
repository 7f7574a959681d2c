import { checkAlt } from '../media-fit';
import type { Failure, MediaItem, PublishContent } from '../types';
import { rejected } from '../http';

/**
 * X's post length, after twitter-text v3 (the library X's own clients count with):
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

export const X_MAX_WEIGHTED_LENGTH = 280;
export const X_URL_WEIGHT = 23;
export const X_MAX_IMAGES = 4;

const LIGHT_RANGES: Array<[number, number]> = [[0x0000, 0x10ff], [0x2000, 0x200d], [0x2010, 0x201f], [0x2032, 0x2037]];
const TLDS = 'com|org|net|io|co|dev|app|ai|me|ly|gg|tv|xyz|info|biz|edu|gov|us|uk|de|fr|es|it|nl|jp|cn|ca|au|in|br|ru|ch|se|no|eu|to|so|sh|fm|be|at|pl|site|online|store|tech|blog|news';
const URL_RE = new RegExp(
  `(?:https?:\\/\\/[^\\s<>"]+|www\\.[^\\s<>"]+|(?<![\\w@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+(?:${TLDS})(?![\\w-])(?:[/?#][^\\s<>"]*)?)`,
  'giu',
);
/** Punctuation that ends a sentence, not the URL (twitter-text leaves it out of the link). */
const TRAILING = /[.,;:!?'")\]]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\u{FE0F}|\p{Regional_Indicator}/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function weighOf(codePoint: number): number {
  if (codePoint <= 0x10ff) return 1;
  return LIGHT_RANGES.some(([lo, hi]) => codePoint >= lo && codePoint <= hi) ? 1 : 2;
}

function weighText(text: string): number {
  let n = 0;
  // Without an emoji character no grapheme can be one: count code points directly (grapheme segmentation is slow).
  if (!EMOJI.test(text)) {
    for (const ch of text) n += weighOf(ch.codePointAt(0) ?? 0);
    return n;
  }
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI.test(segment)) { n += 2; continue; }
    for (const ch of segment) n += weighOf(ch.codePointAt(0) ?? 0);
  }
  return n;
}

/** The weighted length X counts against its 280 limit. */
export function weightedLength(text: string): number {
  const normal = text.normalize('NFC');
  let n = 0;
  let last = 0;
  for (const m of normal.matchAll(URL_RE)) {
    const url = m[0].replace(TRAILING, '');
    const start = m.index ?? 0;
    n += weighText(normal.slice(last, start)) + X_URL_WEIGHT;
    last = start + url.length;
  }
  return n + weighText(normal.slice(last));
}

/** A GIF goes up as tweet_gif and, like a video, must be alone in its post. */
export function isGif(item: MediaItem): boolean {
  return item.kind === 'image' && ((item.content_type ?? '').toLowerCase() === 'image/gif' || /\.gif(?:[?#]|$)/i.test(item.url));
}

export function checkContent(content: PublishContent): Failure | undefined {
  const texts: Array<[string, string]> = [[content.text, 'the text'], ...content.thread.map((t, i): [string, string] => [t, `thread post ${i + 1}`])];
  if (content.first_comment !== undefined) texts.push([content.first_comment, 'the first comment']);
  for (const [text, label] of texts) {
    const n = weightedLength(text);
    if (n > X_MAX_WEIGHTED_LENGTH) {
      return rejected(`x allows ${X_MAX_WEIGHTED_LENGTH} characters per post (a link counts ${X_URL_WEIGHT}; CJK characters and emoji count 2); ${label} counts ${n}`, 'text_too_long');
    }
  }
  const moving = content.media.filter((m) => m.kind === 'video' || isGif(m));
  if (moving.length > 0 && content.media.length > 1) return rejected('x takes up to 4 photos, or one video or GIF on its own: not a mix', 'bad_media');
  if (content.media.length > X_MAX_IMAGES) return rejected(`x takes at most ${X_MAX_IMAGES} photos per post; got ${content.media.length}`, 'bad_media');
  if (content.options?.poll && (content.media.length || content.options.quote)) return rejected('an x post carries a poll alone: no media and no quote with it');
  return checkAlt('x', content.media);
}
