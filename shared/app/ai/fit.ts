import type { PlatformName } from '../../domain/platforms';
import { HASHTAG_RE, hashtagsOf, measure, textLimit, textProblems, utf8Length, type PostShape, type TextRule } from '../../domain/text-length';
import { shortenToFit, splitIntoPosts, type Fits } from '../../domain/text-split';
import type { DraftView } from '../../api/ai-schemas';
import type { NetworkBrief } from '../../ports/ai';
import type { ModelDraft } from './answer';

/** At most this many further posts in a thread (POST /api/post takes 25). */
export const MAX_THREAD = 25;
/** Titles the drafter makes are kept to this many characters even where the network allows more. */
export const TITLE_TARGET = 100;

/** Characters a network refuses outright, replaced by look-alikes (YouTube: no < or > in a title or description). */
const REFUSED_CHARACTERS: Partial<Record<PlatformName, (text: string) => string>> = {
  youtube: (text) => text.replace(/</g, '‹').replace(/>/g, '›'),
};

/** A draft that cannot be made to fit (e.g. one link longer than a whole post). */
export class UnfitDraft extends Error {}

/** A post of this shape fits the length validator under a network's text `rule`. */
export function fitsPost(rule: TextRule, shape: PostShape): Fits {
  const limit = textLimit(rule, shape);
  return (text) => measure(rule.unit, text) <= limit && (rule.maxBytes === undefined || utf8Length(text) <= rule.maxBytes);
}

function fitsTitle(rule: TextRule): Fits {
  const { title } = rule;
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
  return text.replace(HASHTAG_RE, (tag) => (++seen > max ? '' : tag)).replace(/[ \t]{2,}/g, ' ').replace(/[ \t]+$/gm, '').trim();
}

/**
 * Makes a provider's draft fit its network (its text `rule`), or throws UnfitDraft; the answer always passes the length validator:
 * - thread networks: every post over the limit is split into a thread at sentence boundaries;
 * - other networks: the texts are joined and, if too long, shortened to whole sentences (else words and …);
 * - titles where the network shows one (derived from the text when missing), none elsewhere;
 * - first_comment only where the network takes one; hashtags capped where the network caps them.
 */
export function fitDraft(brief: NetworkBrief, rule: TextRule, raw: ModelDraft, shape: PostShape): DraftView {
  const { platform } = brief;
  const fits = fitsPost(rule, shape);
  const clean = REFUSED_CHARACTERS[platform] ?? ((t: string) => t);
  const parts = [raw.text, ...(raw.thread ?? [])].map((p) => clean(p).trim()).filter(Boolean);
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
    const wanted = oneLine(clean(raw.title ?? '')) || oneLine(titleFrom(text));
    title = shortenToFit(wanted, fitsTitle(rule));
    if (!title) throw new UnfitDraft(`${platform}: no title fits`);
  }

  let first_comment: string | undefined;
  if (rule.firstComment && raw.first_comment?.trim()) first_comment = shortenToFit(raw.first_comment.trim(), fits);

  const problems = textProblems(platform, rule, { text, thread, first_comment, title }, shape);
  if (problems.length) throw new UnfitDraft(`${platform}: ${problems[0].message}`);

  const hashtags = [...new Set([text, ...thread].flatMap(hashtagsOf))];
  return {
    text,
    ...(title !== undefined ? { title } : {}),
    ...(thread.length ? { thread } : {}),
    ...(first_comment !== undefined ? { first_comment } : {}),
    ...(hashtags.length ? { hashtags } : {}),
    chars: measure(rule.unit, text),
    limit: textLimit(rule, shape),
  };
}
