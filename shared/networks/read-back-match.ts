import type { ReadBackOutcome, ReadBackQuery } from '../ports/networks';
import { NetworkTimeout, NetworkUnreachable, type HttpResult } from './http';

/**
 * What every network's read-back shares: how a listed post is compared with what we sent (same text, inside the
 * window), how a newest-first listing is walked with as few pages as possible, and how any failure becomes
 * `unreadable` (a read-back never throws).
 */

/** Clocks differ: a post stamped this much before `since` or after `until` still counts as inside the window. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** At most this many pages of a listing are read; a window still not covered then is `unreadable`. */
export const MAX_PAGES = 5;

/** A post as a network's listing shows it. `at` in ms since epoch. */
export interface ListedPost {
  id: string;
  url: string;
  text: string;
  at: number;
  title?: string;
}

/** One page of a newest-first listing: its posts and the cursor of the next (older) page, undefined at the end. */
export interface ListingPage {
  posts: ListedPost[];
  next?: string;
}

/** Text as compared: Unicode NFC, line endings and runs of blanks folded, trimmed (networks re-wrap whitespace). */
export function normaliseText(s: string): string {
  return s.normalize('NFC').replace(/\r\n?/g, '\n').replace(/[ \t\u00a0]+/g, ' ').replace(/ *\n */g, '\n').replace(/\n{2,}/g, '\n\n').trim();
}

/** Whether two texts are the same once normalised. */
export const sameText = (a: string, b: string): boolean => normaliseText(a) === normaliseText(b);

export const inWindow = (at: number, q: ReadBackQuery): boolean => at >= q.since - CLOCK_SKEW_MS && at <= q.until + CLOCK_SKEW_MS;
export const olderThanWindow = (at: number, q: ReadBackQuery): boolean => at < q.since - CLOCK_SKEW_MS;

/** Whether a listed post is the one we sent: one of the texts it may carry, the title when both have one, inside the window. */
export function matches(post: ListedPost, texts: readonly string[], q: ReadBackQuery, title?: string): boolean {
  if (!inWindow(post.at, q)) return false;
  if (title !== undefined && post.title !== undefined && normaliseText(post.title) !== normaliseText(title)) return false;
  const seen = normaliseText(post.text);
  return texts.some((t) => normaliseText(t) === seen);
}

/**
 * Walks a newest-first listing page by page until the post is found, a post older than the window shows the window
 * is covered, or the listing ends (the whole history was seen): found / absent. A page that fails ends the walk as
 * `unreadable`; so does a window still not covered after MAX_PAGES. `unordered`: the network documents no order for
 * its listing, so an older post proves nothing and only the listing's end answers absent.
 */
export async function scanListing(
  network: string, q: ReadBackQuery, texts: readonly string[], page: (cursor?: string) => Promise<ListingPage | ReadBackOutcome>,
  opts: { title?: string; maxPages?: number; unordered?: boolean } = {},
): Promise<ReadBackOutcome> {
  let cursor: string | undefined;
  for (let n = 0; n < (opts.maxPages ?? MAX_PAGES); n++) {
    const got = await page(cursor);
    if ('state' in got) return got;
    const hit = got.posts.find((p) => matches(p, texts, q, opts.title));
    if (hit) return { state: 'found', id: hit.id, url: hit.url };
    if ((!opts.unordered && got.posts.some((p) => olderThanWindow(p.at, q))) || !got.next) return { state: 'absent' };
    cursor = got.next;
  }
  return { state: 'unreadable', reason: `${network}: the ${opts.maxPages ?? MAX_PAGES} newest pages of the account's posts do not reach back to the time the post was sent` };
}

/** A listing request answered with an error status → unreadable, with the status and a short piece of the answer. */
export function unreadableAnswer(network: string, res: HttpResult, doing: string): ReadBackOutcome {
  const detail = res.text.replace(/\s+/g, ' ').slice(0, 200);
  return { state: 'unreadable', reason: `${network} answered HTTP ${res.status} while ${doing}${detail ? `: ${detail}` : ''}` };
}

/** Runs a read-back; anything thrown (timeout, unreachable, a malformed answer) becomes `unreadable` with the reason. */
export async function readingBack(network: string, fn: () => Promise<ReadBackOutcome>): Promise<ReadBackOutcome> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof NetworkTimeout) return { state: 'unreadable', reason: `${network} did not answer the read-back before the deadline` };
    if (err instanceof NetworkUnreachable) return { state: 'unreadable', reason: `${network} could not be reached for the read-back` };
    return { state: 'unreadable', reason: `${network} read-back failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** ms since epoch of an ISO date (or epoch seconds when a number); NaN when unparseable, which no window contains. */
export function timeOf(v: unknown): number {
  if (typeof v === 'number') return v * 1000;
  // Graph API times end in +0000 (no colon), which Date.parse does not take everywhere
  return typeof v === 'string' ? Date.parse(v.replace(/([+-]\d\d)(\d\d)$/, '$1:$2')) : Number.NaN;
}

/** Plain text of an HTML fragment as networks render a post: paragraphs and <br> as line breaks, tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|#039);/gi, (_, e: string) => {
      const k = e.toLowerCase();
      if (k.startsWith('#x')) return String.fromCodePoint(parseInt(k.slice(2), 16));
      if (k.startsWith('#')) return String.fromCodePoint(Number(k.slice(1)));
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' } as Record<string, string>)[k] ?? '';
    });
}
