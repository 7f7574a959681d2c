import { graphemeLength } from '../http';

/**
 * Rich-text facets for app.bsky.feed.post: Bluesky does not detect links, mentions or hashtags server-side, so the
 * client sends them with UTF-8 BYTE offsets (start inclusive, end exclusive).
 */

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** A span found in the text, in string (UTF-16) indices; value is the URL, the handle (no @) or the tag (no #). */
export interface Span {
  kind: 'link' | 'mention' | 'tag';
  start: number;
  end: number;
  value: string;
}

const LINK = /https?:\/\/[^\s<>"]+/g;
// @handle.domain after start, whitespace or "(": labels of letters/digits/hyphens, at least one dot.
const MENTION = /(^|[\s(])@([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+)/g;
const TAG = /(^|\s)[#＃]([^\s#＃]+)/gu;
const TRAILING_PUNCT = /[\p{P}]+$/u;

function trimLink(url: string): string {
  let u = url.replace(/[.,;:!?'"]+$/, '');
  // A closing parenthesis belongs to the URL only when the URL opened one (e.g. Wikipedia links).
  while (u.endsWith(')') && (u.match(/\(/g)?.length ?? 0) < (u.match(/\)/g)?.length ?? 0)) u = u.slice(0, -1).replace(/[.,;:!?'"]+$/, '');
  return u;
}

/** Finds links, @handle mentions and #tags, in text order, without overlaps. */
export function findSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(LINK)) {
    const uri = trimLink(m[0]);
    if (uri.length > 'https://'.length) spans.push({ kind: 'link', start: m.index, end: m.index + uri.length, value: uri });
  }
  for (const m of text.matchAll(MENTION)) {
    const start = m.index + m[1].length;
    spans.push({ kind: 'mention', start, end: start + 1 + m[2].length, value: m[2].toLowerCase() });
  }
  for (const m of text.matchAll(TAG)) {
    const tag = m[2].replace(TRAILING_PUNCT, '');
    if (!tag || /^\d+$/.test(tag) || graphemeLength(tag) > 64) continue;
    const start = m.index + m[1].length;
    spans.push({ kind: 'tag', start, end: start + 1 + tag.length, value: tag });
  }
  spans.sort((a, b) => a.start - b.start);
  const kept: Span[] = [];
  for (const s of spans) if (!kept.length || s.start >= kept[kept.length - 1].end) kept.push(s);
  return kept;
}

const encoder = new TextEncoder();
const bytesBefore = (text: string, index: number): number => encoder.encode(text.slice(0, index)).length;

/**
 * Builds the facets of a text. `resolve` turns a handle into a DID; a mention whose handle does not resolve
 * (undefined) is left as plain text.
 */
export async function buildFacets(text: string, resolve: (handle: string) => Promise<string | undefined>): Promise<Facet[]> {
  const facets: Facet[] = [];
  for (const span of findSpans(text)) {
    let feature: FacetFeature;
    if (span.kind === 'link') feature = { $type: 'app.bsky.richtext.facet#link', uri: span.value };
    else if (span.kind === 'tag') feature = { $type: 'app.bsky.richtext.facet#tag', tag: span.value };
    else {
      const did = await resolve(span.value);
      if (!did) continue;
      feature = { $type: 'app.bsky.richtext.facet#mention', did };
    }
    facets.push({ index: { byteStart: bytesBefore(text, span.start), byteEnd: bytesBefore(text, span.end) }, features: [feature] });
  }
  return facets;
}
