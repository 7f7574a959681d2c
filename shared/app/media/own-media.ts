import type { Deps } from '../deps';
import type { MediaGateway } from '../../ports/media-gateway';
import type { MediaItem } from '../../ports/media';
import { kindOfType, MEDIA_TYPES, mediaUrlPrefix } from '../../domain/media';
import { MediaUnreachable } from '../../ports/networks';
import { uploadedItemOfFile } from './uploads';

type OwnDeps = Pick<Deps, 'uploads' | 'blobs' | 'clock'> & { settings: Pick<Deps['settings'], 'publicBaseUrl'> };

const GONE = 'the uploaded file does not exist, was not finalized, or is older than 30 days';

/**
 * Media links that are our own uploads (`${PUBLIC_BASE_URL}/media/…`, from finalize) are recognised without a
 * network round trip: the probe answers from the stored item (kind, content type, size), and a worker that needs
 * the bytes reads them from the blob store directly (no redirect, no address check on the storage endpoint, which
 * is a loopback address locally). Every other link goes to `inner` unchanged. `deps` is read at call time, so it
 * may be the Deps object this gateway becomes part of.
 */
export function withOwnMedia(inner: MediaGateway, deps: OwnDeps): MediaGateway {
  return {
    async probe(url) {
      const file = ownFile(deps, url);
      if (file === undefined) return inner.probe(url);
      const item = await uploadedItemOfFile(deps, file);
      if (!item) return { ok: false, reason: GONE };
      return { ok: true, content_type: item.content_type, kind: kindOfType(item.content_type), bytes: item.size_bytes };
    },
    async download(url, signal) {
      const file = ownFile(deps, url);
      if (file === undefined) return inner.download(url, signal);
      const item = await uploadedItemOfFile(deps, file);
      if (!item) throw new MediaUnreachable(`The media link ${url.split('?')[0]} cannot be downloaded: ${GONE}`);
      const bytes = await readAll(deps, item, signal);
      return { bytes, content_type: item.content_type, filename: `${item.id}.${MEDIA_TYPES[item.content_type]}` };
    },
    ...(inner.downloadDocument ? { downloadDocument: inner.downloadDocument.bind(inner) } : {}),
    checkTarget: (url) => inner.checkTarget(url),
    fetch: inner.fetch,
  };
}

/** The file name when `url` is one of this deployment's media URLs; undefined for any other link. */
export function ownFile(deps: { settings: Pick<Deps['settings'], 'publicBaseUrl'> }, url: string): string | undefined {
  let u: URL;
  let prefix: URL;
  try {
    u = new URL(url);
    prefix = new URL(mediaUrlPrefix(deps.settings.publicBaseUrl));
  } catch {
    return undefined;
  }
  if (u.origin !== prefix.origin || !u.pathname.startsWith(prefix.pathname)) return undefined;
  const rest = u.pathname.slice(prefix.pathname.length);
  if (rest.includes('/')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    // not valid percent-encoded UTF-8: still our media path, naming no file (media_unreachable, not a fetch)
    return rest;
  }
}

async function readAll(deps: OwnDeps, item: MediaItem, signal: AbortSignal): Promise<Uint8Array> {
  if (signal.aborted) throw new MediaUnreachable('The media download did not finish in time');
  let bytes: Uint8Array;
  try {
    bytes = await deps.blobs.readRange(item.key, 0, item.size_bytes - 1);
  } catch (err) {
    throw new MediaUnreachable(`The media link cannot be downloaded: ${GONE}`, err);
  }
  if (signal.aborted) throw new MediaUnreachable('The media download did not finish in time');
  if (bytes.length !== item.size_bytes) throw new MediaUnreachable(`The media link cannot be downloaded: ${GONE}`);
  return bytes;
}
