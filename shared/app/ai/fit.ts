import type { PlatformName } from '../../domain/platforms';
import { hashtagsOf, measure, TEXT_RULES, textLength, textLimit, textProblems, utf8Length, type PostShape } from '../../domain/text-length';
import { shortenToFit, splitIntoPosts, type Fits } from '../../domain/text-split';
import type { DraftView } from '../../api/ai-schemas';
import type { NetworkBrief } from '../../ports/ai';
import type { ModelDraft } from './answer';

/** At most this many further posts in a thread (POST /api/post takes 25). */
export const MAX_THREAD = 25;
/** Titles the drafter makes are kept to this many characters even where the network allows more. */
export const TITLE_TARGET = 100;

/** A draft that cannot be made to fit (e.g. one link longer than a whole post). */
export class UnfitDraft extends Error {}

/** A post of `platform` of this shape fits the length validator. */
export function fitsPost(platform: PlatformName, shape: PostShape): Fits {
  const rule = TEXT_RULES[platform];
  const limit = textLimit(platform, shape);
  return (text) => measure(rule.unit, text) <= limit && (rule.maxBytes === undefined || utf8Length(text) <= rule.maxBytes);
}

function fitsTitle(platform: PlatformName): Fits {
  const title = TEXT_RULES[platform].title;
  return (text) => [...text].length <= TITLE_TARGET && (title?.limit === undefined || measure(title.unit, text) <= title.limit);
}

/** The first sentence or line of a text, as a one-line title. */
export function titleFrom(text: string): string {
  const line = text.split('\n').map((l) => l.replace(/^[#>*\-\s]+/, '').trim()).find((l) => l) ?? text;
  return line;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Drops the hashtags after the first `max` (Instagram: 30 a caption), tidying the spaces they leave. */
function capHashtags(text: string, max: number): string {
  let seen = 0;
  return text.replace(/(?<![\p{L}\p{N}_])#[\p{L}\p{M}\p{N}_]+/gu, (tag) => (++seen > max ? '' : tag)).replace(/[ \t]{2,}/g, ' ').replace(/[ \t]+$/gm, '').trim();
}

/**
 * Makes a provider's draft fit its network, or throws UnfitDraft; the answer always passes the length validator:
 * - thread networks: every post over the limit is split into a thread at sentence boundaries;
 * - other networks: the texts are joined and, if too long, shortened to whole sentences (else words and …);
 * - titles where the network shows one (derived from the text when missing), none elsewhere;
 * - first_comment only where the network takes one; hashtags capped where the network caps them.
 */
export function fitDraft(brief: NetworkBrief, raw: ModelDraft, shape: PostShape): DraftView {
  const { platform } = brief;
  const rule = TEXT_RULES[platform];
  const fits = fitsPost(platform, shape);
  const parts = [raw.text, ...(raw.thread ?? [])].map((p) => p.trim()).filter(Boolean);
  if (!parts.length) throw new UnfitDraft(`${platform}: empty draft`);

  let text: string;
  let thread: string[] = [];
  if (rule.thread) {
    const posts: string[] = [];
    for (const p of parts) {
      const split = splitIntoPosts(rule.maxHashtags ? capHashtags(p, rule.maxHashtags) : p, fits);
      if (!split) throw new UnfitDraft(`${platform}: a word or link is longer than one post`);
      posts.push(...split);
    }
    [text, ...thread] = posts.slice(0, MAX_THREAD + 1);
  } else {
    let joined = parts.join('\n\n');
    if (rule.maxHashtags !== undefined) joined = capHashtags(joined, rule.maxHashtags);
    const short = shortenToFit(joined, fits);
    if (!short) throw new UnfitDraft(`${platform}: not even one word fits`);
    text = short;
  }

  let title: string | undefined;
  if (brief.title) {
    const wanted = oneLine(raw.title ?? '') || oneLine(titleFrom(text));
    title = shortenToFit(wanted, fitsTitle(platform));
    if (!title) throw new UnfitDraft(`${platform}: no title fits`);
  }

  let first_comment: string | undefined;
  if (rule.firstComment && raw.first_comment?.trim()) first_comment = shortenToFit(raw.first_comment.trim(), fits);

  const problems = textProblems(platform, { text, thread, first_comment, title }, shape);
  if (problems.length) throw new UnfitDraft(`${platform}: ${problems[0].message}`);

  const hashtags = [...new Set([text, ...thread].flatMap(hashtagsOf))];
  return {
    text,
    ...(title !== undefined ? { title } : {}),
    ...(thread.length ? { thread } : {}),
    ...(first_comment !== undefined ? { first_comment } : {}),
    ...(hashtags.length ? { hashtags } : {}),
    chars: textLength(platform, text),
    limit: textLimit(platform, shape),
  };
}
