import type { Deps } from '../app/deps';
import type { Grant } from '../http/route';

/**
 * Which adapters one function is wired with, derived from ONE declaration per function: its route's (or worker's)
 * `grants`, which CDK also turns into its IAM policy, and `networks`, whether it talks to the social networks.
 *
 * - In a Lambda bundle, esbuild replaces each `process.env.SPA_WIRE_<GROUP>` switch of shared/container.ts with
 *   "on" or "off" (wiringDefines, used by infra/bundling.ts), so an unwired adapter is not in the bundle at all.
 * - Unbundled (local runtime, tests) every adapter exists, and each HTTP route sees its dependencies through
 *   declaredDeps: using an undeclared one fails there as it would in AWS, so a declaration cannot drift unnoticed.
 */
export const WIRE_GROUPS = ['TABLE', 'SQS', 'S3', 'SES', 'KMS', 'SCHEDULER', 'OAUTH_SSM', 'BILLING', 'AI', 'NETWORKS', 'LOCAL', 'TRACING', 'PUBLISH'] as const;
export type WireGroup = typeof WIRE_GROUPS[number];

/** What a route, worker or the dispatcher declares. */
export interface WiringDeclaration {
  grants: readonly Grant[];
  /** Carries the network adapters and the OAuth sign-in providers (publish, check credentials, connect). */
  networks?: boolean;
  /** Signs S3 URLs without any S3 permission of its own (the S3 client is wired, no grant is given). */
  presigns?: boolean;
  /**
   * Records X-Ray subsegments of its SDK and network calls (shared/tracing.ts: Powertools Tracer, aws-xray-sdk-core).
   * Without it the function still has its own Lambda segment (active tracing), and carries no X-Ray SDK.
   */
  tracing?: boolean;
  /**
   * Publishes posts through the adapters (the publish worker): carries the video container parser (shared/media/iso-bmff.ts) the
   * adapters check downloaded files with. Functions that only verify credentials or sign in (`networks` alone) never
   * parse a video.
   */
  publishes?: boolean;
}

const GROUP_OF_GRANT: Record<Grant, WireGroup> = {
  table: 'TABLE', publishQueue: 'SQS', webhookQueue: 'SQS', bucket: 'S3', bucketRead: 'S3', ses: 'SES',
  kms: 'KMS', kmsEncrypt: 'KMS', kmsDecrypt: 'KMS', scheduler: 'SCHEDULER', oauthConfig: 'OAUTH_SSM', billingConfig: 'BILLING', bedrock: 'AI',
};

/** The adapter groups a Lambda bundle of this declaration carries (never LOCAL: the local stand-ins stay out of AWS). */
export function wiredGroups(d: WiringDeclaration): Set<WireGroup> {
  const groups = new Set<WireGroup>(d.grants.map((g) => GROUP_OF_GRANT[g]));
  if (d.networks) groups.add('NETWORKS');
  if (d.presigns) groups.add('S3');
  if (d.tracing) groups.add('TRACING');
  if (d.publishes) groups.add('PUBLISH');
  return groups;
}

/** esbuild `define` entries of a Lambda bundle: every switch of the container set to "on" or "off". */
export function wiringDefines(d: WiringDeclaration): Record<string, string> {
  const groups = wiredGroups(d);
  return Object.fromEntries(WIRE_GROUPS.map((g) => [`process.env.SPA_WIRE_${g}`, JSON.stringify(groups.has(g) ? 'on' : 'off')]));
}

/** The dependency members each group provides (the rest — clock, settings, media, webhookSender — need no declaration). */
const GROUP_OF_MEMBER: Partial<Record<keyof Deps, WireGroup>> = {
  accounts: 'TABLE', keys: 'TABLE', brands: 'TABLE', tokens: 'TABLE', counters: 'TABLE', connections: 'TABLE', posts: 'TABLE',
  locks: 'TABLE', pace: 'TABLE', events: 'TABLE', webhooks: 'TABLE', schedules: 'TABLE', recurring: 'TABLE', slots: 'TABLE', uploads: 'TABLE', sessions: 'TABLE',
  mcpOAuth: 'TABLE', guardrails: 'TABLE', apps: 'TABLE', approvals: 'TABLE', branding: 'TABLE', billing: 'TABLE', publishContext: 'TABLE', postChanges: 'TABLE',
  daySummaries: 'TABLE', analytics: 'TABLE',
  mailer: 'SES', cipher: 'KMS', queue: 'SQS', scheduler: 'SCHEDULER', blobs: 'S3', networks: 'NETWORKS', payments: 'BILLING', ai: 'AI',
};

const DECLARE: Record<Exclude<WireGroup, 'LOCAL' | 'TRACING' | 'PUBLISH'>, string> = {
  TABLE: "the 'table' grant", SQS: "a 'publishQueue' or 'webhookQueue' grant", S3: "a 'bucket' or 'bucketRead' grant (or `presigns: true`)", SES: "the 'ses' grant",
  KMS: "a 'kms', 'kmsEncrypt' or 'kmsDecrypt' grant", SCHEDULER: "the 'scheduler' grant", OAUTH_SSM: "the 'oauthConfig' grant",
  BILLING: "the 'billingConfig' grant", AI: "the 'bedrock' grant", NETWORKS: '`networks: true`',
};

/** Thrown when a function uses a dependency its declaration does not wire. */
export class UndeclaredDependencyError extends Error {
  constructor(fn: string, member: string, group: Exclude<WireGroup, 'LOCAL' | 'TRACING' | 'PUBLISH'>) {
    super(`${fn} uses deps.${member} but does not declare ${DECLARE[group]} (functions/routes, functions/workers.ts): in AWS its bundle has no such adapter`);
    this.name = 'UndeclaredDependencyError';
  }
}

/**
 * `deps` as the function `fn` of this declaration sees it: reading a member its declaration does not wire throws
 * UndeclaredDependencyError (OAuth: the providers need `networks`, the client registrations `oauthConfig`). Members
 * it wires read through to `deps` itself, so replacing one on `deps` (tests) still shows.
 */
export function declaredDeps(deps: Deps, fn: string, d: WiringDeclaration): Deps {
  const groups = wiredGroups(d);
  const view = Object.create(deps) as Deps;
  const refuse = (member: string, group: Exclude<WireGroup, 'LOCAL' | 'TRACING' | 'PUBLISH'>) => () => { throw new UndeclaredDependencyError(fn, member, group); };
  for (const [member, group] of Object.entries(GROUP_OF_MEMBER) as Array<[keyof Deps, Exclude<WireGroup, 'LOCAL' | 'TRACING' | 'PUBLISH'>]>) {
    if (!groups.has(group)) Object.defineProperty(view, member, { get: refuse(member, group), enumerable: true });
  }
  if (!groups.has('NETWORKS') || !groups.has('OAUTH_SSM')) {
    Object.defineProperty(view, 'oauth', {
      enumerable: true,
      get: () => ({
        get providers() { return groups.has('NETWORKS') ? deps.oauth.providers : refuse('oauth.providers', 'NETWORKS')(); },
        get clients() { return groups.has('OAUTH_SSM') ? deps.oauth.clients : refuse('oauth.clients', 'OAUTH_SSM')(); },
      }),
    });
  }
  return view;
}
