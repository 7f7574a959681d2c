import type { Deps } from '../app/deps';

/**
 * THE wiring table: every adapter group a Lambda bundle may carry, what a function declares to get it (its route's or
 * worker's `grants`, which CDK also turns into IAM, or a flag such as `networks: true`) and the `Deps` members the
 * group provides. Everything else is derived from it:
 *
 * - the grants themselves (`Grant`), and esbuild's `define` of each bundle (wiringDefines, used by infra/bundling.ts):
 *   every `process.env.SPA_WIRE_<GROUP>` switch of shared/container.ts set to "on" or "off", so an unwired adapter's
 *   require() is dead code and its module is not in the bundle at all;
 * - the message of an adapter a bundle does not wire (unwiredMessage, thrown by the container's lazy loaders);
 * - the type of the dependencies a function sees (DepsOf): a handler given `DepsOf<typeof route>` that reads a member
 *   its declaration does not wire fails to compile (test/structure/deps-of.types.ts).
 */
export const WIRING = {
  TABLE: {
    grants: ['table'], declare: "the 'table' grant",
    members: ['accounts', 'keys', 'brands', 'tokens', 'counters', 'connections', 'posts', 'locks', 'pace', 'events', 'webhooks', 'schedules', 'recurring', 'slots',
      'uploads', 'sessions', 'mcpOAuth', 'guardrails', 'apps', 'approvals', 'branding', 'billing', 'publishContext', 'postChanges', 'daySummaries', 'analytics'],
  },
  SQS: { grants: ['publishQueue', 'webhookQueue', 'fireQueue'], declare: "a 'publishQueue', 'webhookQueue' or 'fireQueue' grant", members: ['queue'] },
  S3: { grants: ['bucket', 'bucketRead'], flag: 'presigns', declare: "a 'bucket' or 'bucketRead' grant (or `presigns: true`)", members: ['blobs'] },
  SES: { grants: ['ses'], declare: "the 'ses' grant", members: ['mailer'] },
  KMS: { grants: ['kms', 'kmsEncrypt', 'kmsDecrypt'], declare: "a 'kms', 'kmsEncrypt' or 'kmsDecrypt' grant", members: ['cipher'] },
  SCHEDULER: { grants: ['scheduler'], declare: "the 'scheduler' grant", members: ['scheduler'] },
  /** The OAuth client registrations (`deps.oauth.clients`) in SSM Parameter Store. */
  OAUTH_SSM: { grants: ['oauthConfig'], declare: "the 'oauthConfig' grant", members: [], oauth: 'clients' },
  BILLING: { grants: ['billingConfig'], declare: "the 'billingConfig' grant", members: ['payments'] },
  AI: { grants: ['bedrock'], declare: "the 'bedrock' grant", members: ['ai'] },
  /** The network adapters and the OAuth sign-in providers (`deps.oauth.providers`). */
  NETWORKS: { grants: [], flag: 'networks', declare: '`networks: true`', members: ['networks'], oauth: 'providers' },
  /** The local stand-ins: never in a Lambda bundle. */
  LOCAL: { grants: [], declare: 'RUNTIME=local', members: [] },
  /** The X-Ray SDK (shared/tracing.ts). */
  TRACING: { grants: [], flag: 'tracing', declare: '`tracing: true`', members: [] },
  /** The video container parser the adapters check downloaded files with (shared/media/video-info.ts). */
  PUBLISH: { grants: [], flag: 'publishes', declare: '`publishes: true`', members: [] },
} as const satisfies Record<string, {
  grants: readonly string[]; flag?: keyof WiringFlags; declare: string; members: ReadonlyArray<keyof Deps>; oauth?: keyof Deps['oauth'];
}>;

export type WireGroup = keyof typeof WIRING;
export const WIRE_GROUPS = Object.keys(WIRING) as WireGroup[];

/**
 * AWS resources a function may use; the CDK stack grants exactly these. `oauthConfig`: read the OAuth client
 * registrations under OAUTH_SSM_PREFIX in SSM Parameter Store. `bucket`: read, write and delete media objects;
 * `bucketRead`: read them only. `billingConfig`: read Stripe's keys and prices under BILLING_SSM_PREFIX (billing
 * routes only). `bedrock`: bedrock:InvokeModel on the configured model only. `kms`: encrypt and decrypt secrets;
 * `kmsEncrypt` / `kmsDecrypt`: only new data keys / only unwrapping them.
 */
export type Grant = typeof WIRING[WireGroup]['grants'][number];

/** Members every function has without declaring anything (time, settings, media links, webhook sending, signals, network limits). */
const FREE_MEMBERS = ['clock', 'settings', 'media', 'webhookSender', 'fanOut', 'resultSignal', 'networkLimits'] as const satisfies ReadonlyArray<keyof Deps>;
type FreeMember = typeof FREE_MEMBERS[number];
type GroupMember = typeof WIRING[WireGroup]['members'][number];
/** Every member of Deps is free, provided by a group, or `oauth` (split between two groups): compile-time check. */
type Unplaced = Exclude<keyof Deps, FreeMember | GroupMember | 'oauth'>;
const everyMemberPlaced: [Unplaced] extends [never] ? true : Unplaced = true;
void everyMemberPlaced;

/** The declaration flags that wire a group (besides grants). */
export interface WiringFlags {
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

/** What a route, worker or the dispatcher declares. */
export interface WiringDeclaration extends WiringFlags {
  grants: readonly Grant[];
}

/** The adapter groups a Lambda bundle of this declaration carries (never LOCAL: the local stand-ins stay out of AWS). */
export function wiredGroups(d: WiringDeclaration): Set<WireGroup> {
  return new Set(WIRE_GROUPS.filter((g) => {
    const group: { grants: readonly string[]; flag?: keyof WiringFlags } = WIRING[g];
    return group.grants.some((grant) => d.grants.includes(grant as Grant)) || (!!group.flag && d[group.flag] === true);
  }));
}

/** esbuild `define` entries of a Lambda bundle: every switch of the container set to "on" or "off". */
export function wiringDefines(d: WiringDeclaration): Record<string, string> {
  const groups = wiredGroups(d);
  return Object.fromEntries(WIRE_GROUPS.map((g) => [`process.env.SPA_WIRE_${g}`, JSON.stringify(groups.has(g) ? 'on' : 'off')]));
}

/** What a function must declare to be wired with `what` (shared/container.ts throws it from an unwired loader). */
export function unwiredMessage(what: string, group: WireGroup): string {
  return `${what} is not wired into this function: its route or worker must declare ${WIRING[group].declare} (functions/routes, functions/workers.ts)`;
}

// ---- The dependencies a function sees, as a type

type GroupsOfGrant<G> = { [K in WireGroup]: G extends typeof WIRING[K]['grants'][number] ? K : never }[WireGroup];
type GroupsOfFlags<D> = { [K in WireGroup]: typeof WIRING[K] extends { flag: infer F extends keyof WiringFlags } ? (D extends { [P in F]: true } ? K : never) : never }[WireGroup];
/** The groups a declaration wires, as a type (the same rule as wiredGroups). */
export type GroupsOf<D extends WiringDeclaration> = GroupsOfGrant<D['grants'][number]> | GroupsOfFlags<D>;
type OAuthOf<G extends WireGroup> = { [K in G]: typeof WIRING[K] extends { oauth: infer O extends keyof Deps['oauth'] } ? O : never }[G];

/**
 * The dependencies of a function with declaration D: the free members and those of the groups D wires (`oauth` with
 * only the halves it wires). A whole `Deps` is assignable to it; a member D does not wire is not there at all.
 */
export type DepsOf<D extends WiringDeclaration> = Pick<Deps, FreeMember | typeof WIRING[GroupsOf<D>]['members'][number]>
  & ([OAuthOf<GroupsOf<D>>] extends [never] ? unknown : { oauth: Pick<Deps['oauth'], OAuthOf<GroupsOf<D>>> });
