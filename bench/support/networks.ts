import { Sandbox } from '../../infra/local/sandbox';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { NetworkSimulator, type FakeServer, type RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { isPlatformName, type PlatformName } from '../../shared/domain/platforms';
import { DelayedRelay } from './delayed-relay';

export type BenchNetwork = PlatformName;

/** The credential networks the sandbox simulates (those it lists accepted credentials for), in its order. */
function sandboxCredentialNetworks(): BenchNetwork[] {
  const names = new Sandbox();
  names.mount('http://127.0.0.1'); // its credentials name URLs under its origin: any origin will do for the names
  return Object.keys(names.credentials()).filter(isPlatformName);
}

/** The benches' networks: the sandbox's credential networks. */
export const NETWORKS: readonly BenchNetwork[] = sandboxCredentialNetworks();

/** When one network's publishing call reached its simulator (Date.now()), and the post's number (see postTag). */
export interface Arrival { network: BenchNetwork; at: number; post?: number }

/** The marker a bench puts in a post's text so that the simulators can tell which post a call belongs to. */
export const postTag = (n: number) => `post${n}`;
const TAG = /\bpost(\d+)\b/;
const tagIn = (text: string) => { const m = TAG.exec(text); return m ? Number(m[1]) : undefined; };

const gql = (r: RecordedRequest) => (r.json as { query?: string } | undefined)?.query ?? '';
/** The one request per post that creates the post, per HTTP network (Nostr's is its EVENT, on the DelayedRelay). */
const PUBLISH_CALL: Partial<Record<BenchNetwork, (r: RecordedRequest) => boolean>> = {
  telegram: (r) => r.path.endsWith('/sendMessage'),
  bluesky: (r) => r.path === '/xrpc/com.atproto.repo.createRecord',
  mastodon: (r) => r.method === 'POST' && r.path === '/api/v1/statuses',
  discord: (r) => r.method === 'POST',
  wordpress: (r) => r.method === 'POST' && r.path === '/wp-json/wp/v2/posts',
  devto: (r) => r.method === 'POST' && r.path === '/api/articles',
  hashnode: (r) => gql(r).includes('publishPost(') || gql(r).includes('createDraft('),
  slack: (r) => r.method === 'POST',
};

/**
 * The sandbox's simulators of the credential networks (infra/local/sandbox, the ones `npm start` mounts), served from
 * a loopback server of the bench's own, plus a delayed Nostr relay, with a settable delay D on each network's
 * *publishing* call only (PUBLISH_CALL). Other calls (Bluesky's createSession before each post, the verify calls of
 * POST /api/connect) answer at once, so every network costs exactly one D per post. Each publishing call's arrival
 * time is recorded in `arrivals`, with the post number found in its body (postTag). The networks, their simulators,
 * environment and accepted credentials are the sandbox's: one list.
 */
export class BenchNetworks {
  delayMs = 0;
  readonly arrivals: Arrival[] = [];
  private readonly sandbox = new Sandbox();
  /** The sandbox's relay answers at once; the benches need a delay on Nostr's publishing call too. */
  private readonly nostr = new DelayedRelay();
  private close: () => Promise<void> = async () => undefined;

  constructor() {
    for (const network of NETWORKS) {
      if (network === 'nostr') continue;
      const isPublish = PUBLISH_CALL[network];
      if (!isPublish) throw new Error(`The bench does not know which call of ${network} publishes (bench/support/networks.ts PUBLISH_CALL)`);
      this.wrap(network, this.simulator(network), isPublish);
    }
  }

  /** The HTTP server of the sandbox's simulator of `network`. */
  private simulator(network: BenchNetwork): FakeServer {
    return this.sandbox.fake(network, NetworkSimulator).server;
  }

  /** Adds D (and an arrival record) to the simulator's answers for its publishing call. */
  private wrap(network: BenchNetwork, server: FakeServer, isPublish: (r: RecordedRequest) => boolean): void {
    const inner = server.handler;
    server.handler = async (req) => {
      const reply = await inner(req);
      if (!isPublish(req)) return reply;
      this.arrivals.push({ network, at: Date.now(), post: tagIn(req.text) });
      // The simulators keep every request; drop them so a long run doesn't hold thousands of bodies.
      server.requests.length = 0;
      return this.delayMs > 0 ? { ...reply, delayMs: (reply.delayMs ?? 0) + this.delayMs } : reply;
    };
  }

  /** Serves the sandbox at `http://127.0.0.1:<port>/sandbox/<network>/` (as the local runtime does) and starts the relay. */
  async start(): Promise<void> {
    this.close = (await this.sandbox.listen()).close;
    await this.nostr.start();
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.close(), this.nostr.stop()]);
  }

  setDelay(ms: number): void {
    this.delayMs = ms;
    this.nostr.delayMs = ms;
  }

  /** Every publishing call recorded so far, the Nostr relay's included. */
  allArrivals(): Arrival[] {
    return [...this.arrivals, ...this.nostr.received.map((r) => ({ network: 'nostr' as const, at: r.at, post: tagIn(r.content) }))];
  }

  /** The publishing calls of one post (by its postTag number), earliest first. */
  arrivalsOf(post: number): Arrival[] {
    return this.allArrivals().filter((a) => a.post === post).sort((x, y) => x.at - y.at);
  }

  clearArrivals(): void {
    this.arrivals.length = 0;
    this.nostr.received.length = 0;
  }

  /** Environment for the local runtime: the sandbox's own settings of the benches' networks (API bases), pointing here. */
  runtimeEnv(): Record<string, string> {
    const groups = this.sandbox.envGroups();
    return Object.assign({}, ...NETWORKS.filter((n) => n !== 'nostr').map((n) => groups[n]));
  }

  /** POST /api/connect bodies, one per network: the credentials the sandbox accepts (Nostr's relay: the delayed one). */
  connectBodies(): Array<{ platform: BenchNetwork; credentials: Record<string, string> }> {
    const credentials = this.sandbox.credentials();
    return NETWORKS.map((platform) => ({
      platform, credentials: platform === 'nostr' ? { ...credentials.nostr, relays: this.nostr.url } : credentials[platform]!,
    }));
  }
}

/** A started Discord simulator that records when each message arrived (Date.now()) and its text, in order. */
export async function recordingDiscord(): Promise<{ discord: DiscordFake; arrivals: Array<{ at: number; text: string }> }> {
  const discord = new DiscordFake();
  const arrivals: Array<{ at: number; text: string }> = [];
  const answer = discord.server.handler;
  discord.server.handler = (req) => {
    if (req.method === 'POST') arrivals.push({ at: Date.now(), text: String((req.json as { content?: string })?.content ?? '') });
    return answer(req);
  };
  await discord.start();
  return { discord, arrivals };
}
