import type { FetchedMedia, NetworkContext } from '../../ports/networks';

/**
 * The page behind a Bluesky link card (app.bsky.embed.external): og:title / og:description / og:image (else
 * <title> and meta description), read with ctx.fetch — the address-guarded fetch, redirects re-checked — and the
 * image with ctx.fetchMedia (address-checked, size-capped). A page that cannot be read still gives a card: its
 * host as the title, no description, no image.
 */

export interface LinkCard {
  title: string;
  description: string;
  /** The og:image bytes, when they are an image Bluesky takes (≤ 1,000,000 bytes). */
  image?: FetchedMedia;
}

const MAX_HTML_BYTES = 512 * 1024;
const MAX_THUMB_BYTES = 1_000_000;
const TITLE_MAX = 300;
const DESCRIPTION_MAX = 1000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };
const decode = (s: string) => s
  .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
  .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
  .replace(/&([a-z#0-9]+);/gi, (m, n: string) => ENTITIES[n.toLowerCase()] ?? m)
  .replace(/\s+/g, ' ').trim();

/** The content of <meta property|name="key" content="…"> in either attribute order. */
function meta(html: string, key: string): string | undefined {
  const k = key.replace(/[.:]/g, (c) => `\\${c}`);
  const a = new RegExp(`<meta[^>]+(?:property|name)\\s*=\\s*["']${k}["'][^>]*content\\s*=\\s*["']([^"']*)["']`, 'i').exec(html);
  const b = new RegExp(`<meta[^>]+content\\s*=\\s*["']([^"']*)["'][^>]*(?:property|name)\\s*=\\s*["']${k}["']`, 'i').exec(html);
  const v = a?.[1] ?? b?.[1];
  return v !== undefined ? decode(v) : undefined;
}

/** Reads the start of an HTML page, at most MAX_HTML_BYTES. */
async function readHtml(ctx: NetworkContext, uri: string): Promise<string | undefined> {
  const res = await ctx.fetch(uri, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'follow', signal: ctx.signal });
  if (!res.ok || !/html/i.test(res.headers.get('content-type') ?? '')) { await res.body?.cancel().catch(() => undefined); return undefined; }
  const reader = res.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= MAX_HTML_BYTES) { await reader.cancel().catch(() => undefined); break; }
  }
  return Buffer.concat(chunks).subarray(0, MAX_HTML_BYTES).toString('utf8');
}

export async function readLinkCard(ctx: NetworkContext, uri: string): Promise<LinkCard> {
  const fallback: LinkCard = { title: hostOf(uri), description: '' };
  let html: string | undefined;
  try { html = await readHtml(ctx, uri); } catch { return fallback; }
  if (!html) return fallback;
  const title = meta(html, 'og:title') ?? meta(html, 'twitter:title') ?? decode(/<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1] ?? '');
  const description = meta(html, 'og:description') ?? meta(html, 'twitter:description') ?? meta(html, 'description') ?? '';
  const card: LinkCard = { title: (title || fallback.title).slice(0, TITLE_MAX), description: description.slice(0, DESCRIPTION_MAX) };
  const imageRef = meta(html, 'og:image') ?? meta(html, 'twitter:image');
  if (imageRef) {
    try {
      const image = await ctx.fetchMedia(new URL(imageRef, uri).href);
      if (image.content_type.startsWith('image/') && image.bytes.length <= MAX_THUMB_BYTES) card.image = image;
    } catch {
      // no thumbnail: the card goes without one
    }
  }
  return card;
}

function hostOf(uri: string): string {
  try { return new URL(uri).host; } catch { return uri; }
}
