/**
 * Cutting text to fit a network, measured by a `fits` test (a closure over the length validator):
 * - splitIntoPosts: a thread, each post as many whole sentences as fit; a sentence longer than a post is split
 *   between words. Cuts happen only at whitespace, so never inside a word or a link.
 * - shortenToFit: the longest run of whole sentences that fits, else whole words and an ellipsis.
 */

export type Fits = (text: string) => boolean;

interface Piece { text: string; sep: string }

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The separator kept after a piece: a blank line, a line break or a space, as the original had. */
function separatorOf(whitespace: string): string {
  const breaks = (whitespace.match(/\n/g) ?? []).length;
  return breaks >= 2 ? '\n\n' : breaks === 1 ? '\n' : ' ';
}

/**
 * Sentences of `text`, each with the separator that followed it. A sentence boundary not followed by whitespace
 * (inside a link such as `Example.COM/X`) is not a boundary.
 */
export function sentencesOf(text: string): Piece[] {
  const out: Piece[] = [];
  let pending = '';
  let trailing = '';
  for (const { segment } of sentenceSegmenter.segment(text)) {
    pending += segment;
    if (!/\s$/.test(pending)) continue;
    const body = pending.trimEnd();
    if (body.trim()) {
      trailing = pending.slice(body.length);
      out.push({ text: body.trim(), sep: separatorOf(trailing) });
    } else if (out.length) {
      // whitespace on its own (a paragraph break ends a segment): it belongs to the previous separator
      trailing += pending;
      out[out.length - 1].sep = separatorOf(trailing);
    }
    pending = '';
  }
  if (pending.trim()) out.push({ text: pending.trim(), sep: ' ' });
  return out;
}

function wordsOf(text: string): Piece[] {
  const out: Piece[] = [];
  for (const m of text.matchAll(/(\S+)(\s*)/g)) out.push({ text: m[1], sep: separatorOf(m[2]) });
  return out;
}

/** Packs pieces greedily into chunks that fit; undefined when one piece alone does not fit. */
function pack(pieces: Piece[], fits: Fits, splitPiece?: (p: Piece) => Piece[] | undefined): string[] | undefined {
  const chunks: string[] = [];
  let current = '';
  let sep = '';
  for (const p of pieces) {
    const candidate = current ? current + sep + p.text : p.text;
    if (fits(candidate)) { current = candidate; sep = p.sep; continue; }
    if (current) chunks.push(current);
    current = '';
    if (fits(p.text)) { current = p.text; sep = p.sep; continue; }
    const smaller = splitPiece?.(p);
    if (!smaller) return undefined;
    const sub = pack(smaller, fits);
    if (!sub) return undefined;
    chunks.push(...sub.slice(0, -1));
    current = sub[sub.length - 1] ?? '';
    sep = p.sep;
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * `text` as a thread of posts that each fit, cut between sentences (between words inside a sentence that is too
 * long for one post). Undefined when a single word or link is longer than a post.
 */
export function splitIntoPosts(text: string, fits: Fits): string[] | undefined {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (fits(trimmed)) return [trimmed];
  return pack(sentencesOf(trimmed), fits, (p) => wordsOf(p.text));
}

/**
 * The longest beginning of `text` that fits: whole sentences when at least one fits, else whole words followed by
 * an ellipsis. Undefined when not even the first word fits.
 */
export function shortenToFit(text: string, fits: Fits, ellipsis = '…'): string | undefined {
  const trimmed = text.trim();
  if (fits(trimmed)) return trimmed;
  let out = '';
  let sep = '';
  for (const s of sentencesOf(trimmed)) {
    const candidate = out ? out + sep + s.text : s.text;
    if (!fits(candidate)) break;
    out = candidate;
    sep = s.sep;
  }
  if (out) return out;
  let words = '';
  for (const w of wordsOf(trimmed)) {
    const candidate = words ? `${words} ${w.text}` : w.text;
    if (!fits(candidate + ellipsis)) break;
    words = candidate;
  }
  return words ? words.replace(/[\s,;:.!?–—-]+$/u, '') + ellipsis : undefined;
}
