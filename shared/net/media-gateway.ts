import type { MediaGateway } from '../ports/media-gateway';
import { checkUrl } from './address-guard';
import { downloadDocument, downloadMedia, probeMedia } from './media';
import { guardedFetch } from './pinned-fetch';

/*
 * The media gateway apart from the container, which requires this module on first use: its address guard and pinned
 * fetch load node:http, node:https, node:net, node:dns and node:zlib, which a function that never fetches a link
 * (most routes) then does not load at start.
 */

/** Largest media file a worker downloads for a network that needs the bytes (spec §8.3 upload limit). */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;

/** Media links through the address guard: public https only unless ALLOW_PRIVATE_TARGETS (tests, local demos). */
export function mediaGateway(allowPrivate: boolean): MediaGateway {
  return {
    probe: (url) => probeMedia(url, { allowPrivate }),
    download: (url, signal) => downloadMedia(url, { allowPrivate, maxBytes: MAX_MEDIA_BYTES, signal }),
    downloadDocument: (url, signal) => downloadDocument(url, { allowPrivate, maxBytes: MAX_MEDIA_BYTES, signal }),
    checkTarget: async (url) => { await checkUrl(url, { allowPrivate }); },
    fetch: guardedFetch({ allowPrivate }),
  };
}
