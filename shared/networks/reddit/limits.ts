import type { Failure, PublishContent } from '../../ports/networks';
import { graphemeLength, rejected } from '../failures';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/** What a Reddit submission is made of and its limits, checked before sending (the API side's pre-check and the adapter share it). */

export const REDDIT_MAX_TITLE = 300;

/** Its text rule (THE length validator's unit and limits for reddit; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf16', limit: 40_000, thread: false, firstComment: false, title: { unit: 'graphemes', limit: REDDIT_MAX_TITLE } };

export interface Submission {
  sr: string;
  kind: 'self' | 'link';
  title: string;
  text?: string;
  url?: string;
}

/** `r/name`, `/r/name/` or `name` → `name`; undefined when empty or not a subreddit name. */
export function subredditName(raw: string | undefined): string | undefined {
  const name = (raw ?? '').trim().replace(/^\/?r\//i, '').replace(/\/+$/, '');
  return /^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/.test(name) ? name : undefined;
}

const BARE_URL = /^https?:\/\/\S+$/i;

/**
 * The submission for this content: title = content.title, else the first line of the text (cut to 300 characters);
 * body = the text (without that first line when it became the title). One media item → a link post to its URL;
 * a body that is one bare URL → a link post to it; otherwise a self (text) post.
 */
export function submission(content: PublishContent): Submission | Failure {
  const sr = subredditName(content.subreddit);
  if (!sr) return rejected(content.subreddit ? `"${content.subreddit}" is not a subreddit name` : 'reddit needs a subreddit (without the r/ prefix)');
  let title = content.title?.trim() ?? '';
  let body = content.text;
  if (!title) {
    const [first, ...rest] = content.text.trim().split('\n');
    title = first.trim();
    body = rest.join('\n').trim();
    if (graphemeLength(title) > REDDIT_MAX_TITLE) title = `${[...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(title)].slice(0, REDDIT_MAX_TITLE - 1).map((s) => s.segment).join('')}…`;
  }
  if (!title) return rejected('reddit needs a title: send a title or text whose first line can be the title');
  const media = content.media[0];
  if (media) return { sr, kind: 'link', title, url: media.url };
  if (BARE_URL.test(body.trim())) return { sr, kind: 'link', title, url: body.trim() };
  return { sr, kind: 'self', title, text: body };
}

/** Subreddit present, title ≤ 300, self text ≤ 40,000, at most one media item (posted as a link). */
export function checkReddit(content: PublishContent): Failure | undefined {
  const longTitle = content.title ? lengthFailure('reddit', TEXT_RULE, { text: '', title: content.title.trim() }) : undefined;
  if (longTitle) return longTitle;
  if (content.media.length > 1) return rejected(`reddit takes one media item per post; got ${content.media.length}`, 'bad_media');
  const sub = submission(content);
  if ('ok' in sub) return sub;
  return sub.text ? lengthFailure('reddit', TEXT_RULE, { text: sub.text }) : undefined;
}
