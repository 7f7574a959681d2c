import { MediaUnreachable } from '../ports/networks';
import type { FetchedMedia } from '../ports/networks';
import { checkUrl, type HostLookup } from './address-guard';
import { UnsafeTargetError } from '../ports/media-gateway';
import { checkedAddresses, pinnedFetch, type PinnedFetchInit } from './pinned-fetch';
import { sniffKind } from '../media/sniff';

/**
 * Media links (service.md §2.2 rule 3, §7 media_unreachable): checked once before anything is sent (probeMedia)
 * and downloaded with the same address checks and a byte cap when a network needs the bytes (downloadMedia).
 * Every hop of a redirect chain is re-checked and its connection pinned to the address the check approved (no
 * DNS-rebinding window); messages never carry a query string.
 */

const MAX_REDIRECTS = 3;
const SNIFF_BYTES = 64;
const ACCEPT = 'image/*, video/*;q=0.9, */*;q=0.5';

/** Options shared by probeMedia and downloadMedia. */
interface MediaFetchOptions {
  /** ALLOW_PRIVATE_TARGETS: lifts the address check and the https requirement. */
  allowPrivate: boolean;
  /**
   * Test seam: a fetch used INSTEAD of the pinned connection (it resolves the host itself, so the connection is not
   * pinned). Production never sets it: each hop then goes through `connect`.
   */
  fetchImpl?: typeof fetch;
  /** Name resolution for the address check (tests inject it). */
  lookup?: HostLookup;
  /** Sends one hop to the checked addresses; defaults to pinnedFetch (tests wrap it to observe the addresses). */
  connect?: (url: URL, init: PinnedFetchInit) => Promise<Response>;
}

/** Options of probeMedia. */
export interface ProbeMediaOptions extends MediaFetchOptions {
  /** Whole probe deadline, redirects included (default 8000 ms). */
  timeoutMs?: number;
}

/** Options of downloadMedia. */
export interface DownloadMediaOptions extends MediaFetchOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Aborts the download (the caller's deadline). */
  signal: AbortSignal;
}

/** What probeMedia found: a usable image or video, or the plain-words reason it is not. */
export type ProbeResult =
  | { ok: true; content_type: string; bytes?: number; kind: 'image' | 'video' }
  | { ok: false; reason: string };

/** A failure whose message is a plain-words reason (lower-case phrase, no URL). */
class Refusal extends Error {}

/**
 * Checks that a media link can be downloaded and is an image or video, without downloading it: address check,
 * then GET with `Range: bytes=0-1023` (redirects followed up to 3 times, each target re-checked). ok only for a
 * 2xx answer whose Content-Type is image/* or video/* (or octet-stream whose first bytes sniff as media).
 * Never throws; the body is always cancelled.
 */
export async function probeMedia(url: string, opts: ProbeMediaOptions): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? 8000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response | undefined;
  try {
    ({ res } = await openChecked(url, opts, { range: 'bytes=0-1023', accept: ACCEPT }, controller.signal));
    if (res.status < 200 || res.status > 299) throw new Refusal(statusReason(res.status));
    const declared = mediaType(res.headers.get('content-type'));
    const bytes = totalSize(res);
    const declaredKind = kindOf(declared);
    if (declaredKind) return { ok: true, content_type: declared, kind: declaredKind, ...(bytes !== undefined ? { bytes } : {}) };
    if (!isOpaque(declared)) throw new Refusal(contentTypeReason(declared));
    const sniffed = sniffKind(await readPrefix(res, SNIFF_BYTES));
    if (!sniffed) throw new Refusal('the file is not a recognised image or video');
    return { ok: true, content_type: sniffed.content_type, kind: sniffed.kind, ...(bytes !== undefined ? { bytes } : {}) };
  } catch (err) {
    return { ok: false, reason: reasonOf(err, controller.signal.aborted ? `the media server did not answer within ${timeoutMs} ms` : undefined) };
  } finally {
    clearTimeout(timer);
    discard(res);
  }
}

/**
 * Downloads a media link with the same checks as probeMedia, streaming the body under a byte cap. Returns the
 * bytes, the content type (declared, or sniffed for octet-stream) and a filename (last URL path segment, or
 * 'media'). Every failure throws MediaUnreachable with a plain-words message (URL shown without its query).
 */
export async function downloadMedia(url: string, opts: DownloadMediaOptions): Promise<FetchedMedia> {
  let res: Response | undefined;
  try {
    ({ res } = await openChecked(url, opts, { accept: ACCEPT }, opts.signal));
    if (res.status < 200 || res.status > 299) throw new Refusal(statusReason(res.status));
    const declared = mediaType(res.headers.get('content-type'));
    if (!kindOf(declared) && !isOpaque(declared)) throw new Refusal(contentTypeReason(declared));
    const length = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(length) && length > opts.maxBytes) throw new Refusal(`the file is larger than ${opts.maxBytes} bytes`);
    const bytes = await readCapped(res, opts.maxBytes);
    if (bytes.length === 0) throw new Refusal('the file is empty');
    let contentType = declared;
    if (!kindOf(declared)) {
      const sniffed = sniffKind(bytes);
      if (!sniffed) throw new Refusal('the file is not a recognised image or video');
      contentType = sniffed.content_type;
    }
    return { bytes, content_type: contentType, filename: filenameOf(url) };
  } catch (err) {
    if (err instanceof MediaUnreachable) throw err;
    const reason = reasonOf(err, opts.signal.aborted ? 'the download did not finish in time' : undefined);
    throw new MediaUnreachable(`The media link ${describe(url)} cannot be downloaded: ${reason}`, err);
  } finally {
    discard(res);
  }
}

/**
 * Downloads a document link (a PDF, for LinkedIn document posts) with the same address checks, redirects and byte
 * cap as downloadMedia. The file must be declared application/pdf (or opaque) and start with `%PDF-`.
 */
export async function downloadDocument(url: string, opts: DownloadMediaOptions): Promise<FetchedMedia> {
  let res: Response | undefined;
  try {
    ({ res } = await openChecked(url, opts, { accept: 'application/pdf, */*;q=0.5' }, opts.signal));
    if (res.status < 200 || res.status > 299) throw new Refusal(statusReason(res.status));
    const declared = mediaType(res.headers.get('content-type'));
    if (declared !== 'application/pdf' && !isOpaque(declared)) throw new Refusal(`the server says it is ${declared || 'of no type'}, not a PDF`);
    const length = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(length) && length > opts.maxBytes) throw new Refusal(`the file is larger than ${opts.maxBytes} bytes`);
    const bytes = await readCapped(res, opts.maxBytes);
    if (bytes.length === 0) throw new Refusal('the file is empty');
    if (String.fromCharCode(...bytes.subarray(0, 5)) !== '%PDF-') throw new Refusal('the file is not a PDF');
    return { bytes, content_type: 'application/pdf', filename: filenameOf(url) };
  } catch (err) {
    if (err instanceof MediaUnreachable) throw err;
    const reason = reasonOf(err, opts.signal.aborted ? 'the download did not finish in time' : undefined);
    throw new MediaUnreachable(`The document link ${describe(url)} cannot be downloaded: ${reason}`, err);
  } finally {
    discard(res);
  }
}

/** Fetches `raw` hop by hop (redirects handled here), checking and pinning the address of every hop; at most MAX_REDIRECTS hops. */
async function openChecked(raw: string, opts: MediaFetchOptions, headers: Record<string, string>, signal: AbortSignal): Promise<{ res: Response; url: URL }> {
  const fetchImpl = opts.fetchImpl;
  const connect = opts.connect ?? pinnedFetch;
  let current = raw;
  for (let hop = 0; ; hop++) {
    let res: Response;
    let url: URL;
    if (fetchImpl) {
      ({ url } = await checkUrl(current, { allowPrivate: opts.allowPrivate, lookup: opts.lookup }));
      res = await fetchImpl(url.href, { method: 'GET', headers, redirect: 'manual', signal });
    } else {
      // one resolution per hop: the connection goes to the address that was checked
      const checked = await checkedAddresses(current, { allowPrivate: opts.allowPrivate, lookup: opts.lookup });
      url = checked.url;
      res = await connect(url, { addresses: checked.addresses, method: 'GET', headers, signal });
    }
    if (res.status < 300 || res.status > 399 || res.status === 304) return { res, url };
    const location = res.headers.get('location');
    discard(res);
    if (!location) throw new Refusal(`the server answered HTTP ${res.status} without a redirect target`);
    if (hop >= MAX_REDIRECTS) throw new Refusal(`the link redirects more than ${MAX_REDIRECTS} times`);
    try {
      current = new URL(location, url).href;
    } catch {
      throw new Refusal('the server redirected to an invalid address');
    }
  }
}

/** Reads up to `n` bytes of the body (less when it is shorter), then cancels the rest. */
async function readPrefix(res: Response, n: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < n) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return concat(chunks, total);
}

/** Reads the whole body, refusing (and cancelling) once it passes maxBytes. */
async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      reader.cancel().catch(() => undefined);
      throw new Refusal(`the file is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return concat(chunks, total);
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c.subarray(0, Math.min(c.length, total - offset)), offset);
    offset += c.length;
    if (offset >= total) break;
  }
  return out;
}

/** Cancels an unread body so the connection is released; never throws. */
function discard(res: Response | undefined): void {
  if (res?.body && !res.bodyUsed) res.body.cancel().catch(() => undefined);
}

/** The media type of a Content-Type header, lower-case, without parameters ('' when absent). */
function mediaType(header: string | null): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

function kindOf(type: string): 'image' | 'video' | undefined {
  if (/^image\/[\w.+-]+$/.test(type)) return 'image';
  if (/^video\/[\w.+-]+$/.test(type)) return 'video';
  return undefined;
}

/** Types that say nothing about the content: the first bytes decide. */
function isOpaque(type: string): boolean {
  return type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream';
}

function contentTypeReason(type: string): string {
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'the link is a web page, not a media file';
  return `the link is not an image or video (the server says ${type})`;
}

function statusReason(status: number): string {
  if (status === 404 || status === 410) return `the file does not exist (HTTP ${status})`;
  if (status === 401 || status === 403) return `the file is private or the link has expired (HTTP ${status})`;
  if (status >= 500) return `the media server failed (HTTP ${status})`;
  return `the media server refused the request (HTTP ${status})`;
}

/** Total size from Content-Range (206) or Content-Length (200). */
function totalSize(res: Response): number | undefined {
  const range = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  if (res.status !== 200) return undefined;
  const length = Number(res.headers.get('content-length') ?? NaN);
  return Number.isFinite(length) && length >= 0 ? length : undefined;
}

/** A plain-words reason for any failure; `aborted` replaces it when our own deadline cut the request. */
function reasonOf(err: unknown, aborted: string | undefined): string {
  if (err instanceof Refusal) return err.message;
  if (err instanceof UnsafeTargetError) return err.message.charAt(0).toLowerCase() + err.message.slice(1);
  if (aborted) return aborted;
  const code = errorCode(err);
  return code ? `the media server could not be reached (${code})` : 'the media server could not be reached';
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/** The URL for messages: origin and path only, so tokens in a query string never leak. */
function describe(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid link)';
  }
}

/** Last path segment of the URL, decoded and made safe, or 'media'. */
function filenameOf(raw: string): string {
  let segment = '';
  try {
    segment = new URL(raw).pathname.split('/').pop() ?? '';
    segment = decodeURIComponent(segment);
  } catch {
    // keep the raw segment
  }
  // eslint-disable-next-line no-control-regex
  const safe = segment.replace(/[\u0000-\u001f\u007f/\\"]/g, '_').trim().slice(0, 200);
  return safe && safe !== '.' && safe !== '..' ? safe : 'media';
}
