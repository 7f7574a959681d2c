/**
 * Cutting text to fit a network, measured by a `fits` test (a closure over the length validator):
 * - splitIntoPosts: a thread, each post as many whole sentences as fit; a sentence longer than a post is split
 *   between words. Cuts happen only at whitespace, so never inside a word or a link.
 * - shortenToFit: the longest run of whole sentences that fits, else whole words and an ellipsis.
 */

export type Fits = (text: string) => boolean;

interface Piece { text: string; sep: string }

// made on first use (each costs tens of milliseconds to build): loading this module stays cheap
let sentences: Intl.Segmenter | undefined;
let words: Intl.Segmenter | undefined;
const sentenceSegmenter = () => (sentences ??= new Intl.Segmenter('en', { granularity: 'sentence' }));
const wordSegmenter = () => (words ??= new Intl.Segmenter('ja', { granularity: 'word' }));
/** CJK sentence ends: no space follows them, and a boundary there is still a boundary. */
const CJK_TERMINATOR = /[。！？｡]$/u;
/** Scripts written without spaces between words. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** A token that is (or holds) a link: it is never cut. */
const LINK = /:\/\/|^www\.|[a-z0-9-]\.[a-z]{2,}(?:[/?#]|$)/i;

/** The separator kept after a piece: a blank line, a line break, a space or nothing (after 。), as the original had. */
function separatorOf(whitespace: string): string {
  const breaks = (whitespace.match(/\n/g) ?? []).length;
  if (!whitespace) return '';
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
  for (const { segment } of sentenceSegmenter().segment(text)) {
    pending += segment;
    if (!/\s$/.test(pending) && !CJK_TERMINATOR.test(pending)) continue;
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

/**
 * A run without spaces split into its words (CJK text has no spaces: the dictionary word boundaries of
 * Intl.Segmenter). A link, or a single word of a spaced script, is not split: undefined.
 */
function wordSegmentsOf(piece: Piece): Piece[] | undefined {
  if (LINK.test(piece.text) || !UNSPACED_SCRIPT.test(piece.text)) return undefined;
  const parts = [...wordSegmenter().segment(piece.text)].map((w) => w.segment);
  if (parts.length < 2) return undefined;
  return parts.map((w, i) => ({ text: w, sep: i === parts.length - 1 ? piece.sep : '' }));
}

/** Packs pieces greedily into chunks that fit; undefined when one piece alone does not fit. */
function pack(pieces: Piece[], fits: Fits, ...levels: Array<(p: Piece) => Piece[] | undefined>): string[] | undefined {
  const [splitPiece, ...finer] = levels;
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
    const sub = pack(smaller, fits, ...finer);
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
  return pack(sentencesOf(trimmed), fits, (p) => wordsOf(p.text), wordSegmentsOf);
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
  sep = '';
  for (const w of wordsOf(trimmed).flatMap((p) => wordSegmentsOf(p) ?? [p])) {
    const candidate = words ? words + sep + w.text : w.text;
    if (!fits(candidate + ellipsis)) break;
    words = candidate;
    sep = w.sep;
  }
  words = words.replace(/[\s,;:.!?、，。–—-]+$/u, '');
  return words ? words + ellipsis : undefined;
}
