import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PlatformName } from '../../domain/platforms';
import type { FakeReply, FakeServer, RecordedRequest } from './fake-server';

/*
 * What the local sandbox (infra/local/sandbox, `npm start`) needs of one network's simulator. Each registered network
 * exports one as `simulator` from `shared/networks/<name>/simulator.ts`; the sandbox loads that file by the network's
 * name in the registry (shared/networks/network-list.ts), so no list of simulators is written anywhere. Only the
 * local runtime loads it: no Lambda bundle carries simulator code (test/structure/simulators.test.ts).
 */

/** One thing a simulated network received: a post, a thread part, a comment, or a webhook delivery. */
export interface InboxEntry {
  network: PlatformName | 'webhook';
  received_at: string;
  method: string;
  path: string;
  text: string | null;
  title: string | null;
  media: string[];
  /** True for a reply in a thread or a first comment (it answers an earlier entry). */
  reply: boolean;
  /** A delete or an edit of a post published earlier (DELETE / PATCH /api/posts/{id}). */
  change?: 'deleted' | 'edited';
}

/** How the inbox reads one recorded request: a post (or a part of one), a delete or an edit of one. */
export interface InboxReading {
  kind: 'post' | 'deleted' | 'edited';
  /** The network the entry is shown under, when one simulator serves two (the Graph API: Instagram's media). */
  network?: PlatformName;
}

/** The fields of a request as the inbox reads them: its JSON body, its form body, or its query. */
export type RequestFields = Record<string, unknown>;

/** A request that deletes or edits a published post: method, path, and which of the two. */
export type ChangePath = readonly [method: string, path: RegExp, change: 'deleted' | 'edited'];

/**
 * The usual reading: a POST to one of `publish`'s paths is a post (the rest sign in, check, upload or poll), a request
 * matching a `changes` row deletes or edits one.
 */
export function readByPaths(publish: RegExp, changes: readonly ChangePath[] = []): (req: RecordedRequest) => InboxReading | undefined {
  return (req) => {
    if (req.method === 'POST' && publish.test(req.path)) return { kind: 'post' };
    const change = changes.find(([method, path]) => req.method === method && path.test(req.path))?.[2];
    return change ? { kind: change } : undefined;
  };
}

/** A network's own text limit, answered in its own words by the sandbox (the adapters check first). */
export interface SimulatedTextLimit {
  /** The request path that carries a post's text. */
  path: RegExp;
  /** The text in that request's JSON body. */
  text: (body: Record<string, unknown>) => unknown;
  /** Most characters (code points) the network takes. */
  max: number;
  /** Its answer to a longer text. */
  reply: FakeReply;
}

/** Gives another registered network's simulator of this sandbox, checked to be a `kind` (built first if need be). */
export type PeerSimulator = <T extends object>(network: PlatformName, kind: abstract new (...args: never[]) => T) => T;

/**
 * One network's simulator as the sandbox runs it: `create` builds its stand-in (`F`: the fake the tests also use), the
 * other members read that stand-in. `base(segment)` is `<origin>/sandbox/<segment>`.
 */
export interface SandboxSimulator<F extends object = object> {
  /** Builds the network's stand-in for one sandbox; `peer` gives a network's whose host it shares (Instagram: Facebook's Graph API). */
  create(peer: PeerSimulator): F;
  /** Its HTTP servers by the segment each answers under `<origin>/sandbox/<segment>/` (none: it answers through a peer's). */
  servers(fake: F): Record<string, FakeServer>;
  /** What it learns once the sandbox is served at `origin` (besides its servers' URLs). */
  mounted?(fake: F, origin: string): void;
  /** The environment pointing the service at it, set only when the user set none of these variables (explicit wins). */
  env(fake: F, base: (segment: string) => string): Record<string, string>;
  /** The credentials it accepts, for a credential network (GET /dev/sandbox shows them). */
  credentials?(fake: F, base: (segment: string) => string): Record<string, string>;
  /** Which of its recorded requests the inbox shows (`fields`: the request's body or query). */
  read?(req: RecordedRequest, fields: RequestFields): InboxReading | undefined;
  /** What it received outside its HTTP servers (a relay's events). */
  inbox?(fake: F): InboxEntry[];
  /** Its text limit in its own words. */
  textLimit?: SimulatedTextLimit;
  /** Takes a WebSocket upgrade at `path` (a relay); false leaves it. */
  upgrade?(fake: F, path: string, req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Stops what it runs beside its HTTP servers. */
  stop?(fake: F): Promise<void>;
}

/** An OAuth network's environment: the sandbox app's client id and secret, its sign-in host, and `extra` (its API hosts). */
export function oauthEnv(prefix: string, fake: { clientId: string; clientSecret: string; url: string }, extra: Record<string, string> = {}): Record<string, string> {
  return { [`${prefix}_CLIENT_ID`]: fake.clientId, [`${prefix}_CLIENT_SECRET`]: fake.clientSecret, [`${prefix}_AUTH_BASE`]: fake.url, ...extra };
}
