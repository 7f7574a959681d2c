import type { FetchedMedia } from './networks';

/** Media links: a one-time check before sending and a capped download for networks that need the bytes. */
export interface MediaGateway {
  probe(url: string): Promise<{ ok: true; content_type: string; kind: 'image' | 'video'; bytes?: number } | { ok: false; reason: string }>;
  download(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** A document (PDF) link, same checks and cap as download (issue 15: LinkedIn document posts). */
  downloadDocument?(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** Throws UnsafeTargetError when a credential URL (instance, site, webhook) points at a non-public address. */
  checkTarget(url: string): Promise<void>;
  /**
   * The fetch network adapters get (ctx.fetch): every hop is address-checked (public only unless
   * ALLOW_PRIVATE_TARGETS) and connected to the checked address, so a credential URL cannot be rebound.
   */
  fetch: typeof fetch;
}
