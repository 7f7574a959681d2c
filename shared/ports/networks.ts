import type { PlatformName } from '../domain/platforms';
import type { PublishContent } from '../domain/content';
import type { MetricsReading } from '../domain/analytics';

/**
 * The port every network adapter implements (Postiz-style provider, kept small and typed), and the registry of them
 * (the OAuth networks' sign-in side is in oauth.ts).
 * Adapters never touch the store, the queue or AWS: everything they need arrives in the NetworkContext.
 */

export type { MediaItem, MediaKind, PostOptions, PublishContent } from '../domain/content';

/** A media (or document) link that cannot be fetched or used: what NetworkContext.fetchMedia throws. */
export class MediaUnreachable extends Error {
  constructor(message: string, cause?: unknown) { super(message, { cause }); this.name = 'MediaUnreachable'; }
}

/** Bytes of a media item, fetched by the service with its address checks and size cap. */
export interface FetchedMedia {
  bytes: Uint8Array;
  content_type: string;
  filename: string;
}

export interface NetworkContext {
  /** Network credentials as stored (the fields of spec §2.1), decrypted. */
  credentials: Record<string, string>;
  /** Absolute time (ms since epoch) by which the adapter must have answered. */
  deadline: number;
  /** Aborts when the deadline passes; pass it to every request. */
  signal: AbortSignal;
  fetch: typeof fetch;
  /** Downloads a media URL (public-address checked, size capped). Throws MediaUnreachable on failure. */
  fetchMedia(url: string): Promise<FetchedMedia>;
  /** Downloads a document (PDF) link with the same checks; absent where the deployment offers no document download. */
  fetchDocument?(url: string): Promise<FetchedMedia>;
  /**
   * Spaces calls that share `key` by at least `spacingMs` across all workers; resolves with the ms to wait
   * before sending (the caller sleeps), or rejects with a RateLimited outcome when the wait passes the deadline.
   */
  pace(key: string, spacingMs: number): Promise<number>;
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** A published post: its id on the network and its public link. */
export interface Published {
  ok: true;
  /**
   * 'processing': the network accepted the upload but is still working (an Instagram container, a TikTok or YouTube
   * upload that outlives the call). With `resume`, the worker calls adapter.resume(content, resume.state, ctx) again
   * after `resume.after_seconds`, until it answers 'published' or a Failure.
   */
  status: 'published' | 'processing';
  id: string;
  url: string;
  /** Ids of further thread posts / the first comment, when made. */
  thread_ids?: string[];
  comment_id?: string;
  resume?: { after_seconds: number; state: Record<string, string> };
}

/**
 * A failure, sorted into the classes the service acts on:
 * - rejected: the network refused this content (code says why: rejected, text_too_long, bad_media, media_unreachable)
 * - rate_limited: wait retry_after seconds, then the same post may be sent
 * - reauth: credentials expired or revoked; the connection needs a new sign-in
 * - timeout: no answer before the deadline; the post may or may not exist
 * - transient: 5xx / network error before the network accepted anything; safe to retry later
 */
export type Failure =
  | { ok: false; kind: 'rejected'; code: 'rejected' | 'text_too_long' | 'bad_media' | 'media_unreachable'; error: string; what?: string; fix?: string }
  | { ok: false; kind: 'rate_limited'; retry_after: number; error: string }
  | { ok: false; kind: 'reauth'; error: string }
  | { ok: false; kind: 'timeout'; error: string }
  | { ok: false; kind: 'transient'; error: string };

export type PublishOutcome = Published | Failure;

/** Whether a value an adapter or provider answered is a Failure (the `ok: false` side of its union). */
export const isFailure = (v: unknown): v is Failure => typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false;

/** What a successful credential check learned about the account. */
export interface VerifiedAccount {
  ok: true;
  /** Human handle of the connected account (e.g. @acme, the channel title, the site name). */
  handle: string;
  /** Credentials to store: the input, normalised (trimmed URLs, resolved ids) where the adapter needs it. */
  credentials: Record<string, string>;
}

/**
 * What the service asks a network when a worker may have sent a post and died before recording it: the post's
 * exact text (as sent to this network), its title where the network has one, and the time window it could have
 * been published in. `marker` is the send key (PublishContent.send_key) where the network keeps one (e.g. a client-supplied key).
 */
export interface ReadBackQuery {
  text: string;
  title?: string;
  /** ms since epoch: no earlier than the claim. */
  since: number;
  /** ms since epoch: no later than now. */
  until: number;
  marker?: string;
}

/**
 * What a read-back learned: the post is on the network (settle it as published), it is certainly absent in the
 * window (a resend through the same claim is safe), or the network could not be read (the result stays unknown,
 * with the reason).
 */
export type ReadBackOutcome =
  | { state: 'found'; id: string; url: string }
  | { state: 'absent' }
  | { state: 'unreadable'; reason: string };

/**
 * A network's credential check alone (shared/networks/<name>/verify-credentials.ts): what connecting and health checks need,
 * without the send code, so that a function which only verifies (connect, health, MCP) never carries it.
 */
export interface NetworkVerifier {
  readonly name: PlatformName;
  /** Proves the credentials against the network before they are saved (POST /api/connect, health checks). */
  verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure>;
}

export interface NetworkAdapter extends PostManagement, NetworkVerifier {
  /** Checks that need no network call (length limits, media fit); undefined when the content fits. */
  check(content: PublishContent, credentials: Record<string, string>): Failure | undefined;
  publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome>;
  /** Continues a 'processing' publish from the state it returned (async media, resumable uploads). */
  resume?(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome>;
  /**
   * Looks on the network for a post this service may have sent (author feed, timeline, recent posts) by its exact
   * text and time window. Absent where the network cannot be read back: such results stay `unknown`.
   */
  readBack?(content: PublishContent, query: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome>;
  /** Reads published posts' figures (shared/networks/<name>/analytics.ts); absent where the network offers none. */
  metrics?: NetworkMetrics;
}

/**
 * What a metrics read answered: each post's reading by its network id, `gone` when the network no longer has it,
 * `not_offered` when this connection cannot have figures for it (e.g. a permission this installation does not ask for).
 */
export type MetricsAnswer = { ok: true; readings: Record<string, MetricsReading | 'gone' | 'not_offered'> } | Failure;

/**
 * Reading post analytics from a network: `read` takes up to `batch` published posts of one connection; the sweep
 * spaces a connection's reads `spacingMs` apart, which keeps it within the network's rate limit for that token.
 */
export interface NetworkMetrics {
  batch: number;
  spacingMs: number;
  /**
   * Where the network's limit counts the whole app (Reddit per OAuth client, TikTok per app, YouTube per project):
   * reads of every connection of the installation are spaced this far apart as well.
   */
  appSpacingMs?: number;
  read(refs: PublishedRef[], ctx: NetworkContext): Promise<MetricsAnswer>;
}

/** A post this service published on a network: the id and link its publish answered (NetworkResult id / url). */
export interface PublishedRef {
  id: string;
  url?: string;
}

/**
 * What a delete or an edit answered: done (`id`/`url` when the network gave the edited post a new link), or a
 * Failure sorted as for a publish. A post the network no longer has counts as deleted.
 */
export type ChangeOutcome = { ok: true; url?: string } | Failure;

/**
 * Taking back or fixing a published post (shared/networks/<name>/manage.ts): optional members of NetworkAdapter,
 * absent where the network has no such API (the post's results then say not_supported). Static flags of the same
 * facts, for GET /api/platforms without send code, are in shared/networks/manage-flags.ts.
 */
export interface PostManagement {
  /** Deletes the published post; a post the network no longer has answers `{ok: true}`. */
  delete?(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome>;
  /** Replaces the published post's text (and title where the network has one) with `content`'s. */
  edit?(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome>;
}

/** The adapters this deployment has, by network (shared/networks/registry.ts builds it). */
export type Registry = Partial<Record<PlatformName, NetworkAdapter>>;
