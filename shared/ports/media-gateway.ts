import type { FetchedMedia } from './networks';

export type UnsafeTargetReason = 'invalid_url' | 'scheme' | 'credentials_in_url' | 'private_address' | 'unresolvable';

/** Thrown by checkUrl when a URL must not be fetched; `reason` says why, the message says it in plain words. */
export class UnsafeTargetError extends Error {
  constructor(readonly reason: UnsafeTargetReason, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'UnsafeTargetError';
  }
}

/** Media links: a one-time check before sending and a capped download for networks that need the bytes. */
export interface MediaGateway {
  probe(url: string): Promise<{ ok: true; content_type: string; kind: 'image' | 'video'; bytes?: number } | { ok: false; reason: string }>;
  download(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** A document (PDF) link, same checks and cap as download. */
  downloadDocument?(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** Throws UnsafeTargetError when a credential URL (instance, site, webhook) points at a non-public address. */
  checkTarget(url: string): Promise<void>;
  /**
   * The fetch network adapters get (ctx.fetch): every hop is address-checked (public only unless
   * ALLOW_PRIVATE_TARGETS) and connected to the checked address, so a credential URL cannot be rebound.
   */
  fetch: typeof fetch;
}
