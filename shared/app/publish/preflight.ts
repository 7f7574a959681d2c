import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { Connection } from '../../ports/publishing';
import type { Guardrails } from '../../ports/guardrails';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import type { ValidPost } from './request';
import { PLANS } from '../../domain/plans';
import { upgradeUrl } from '../brands';
import { contentFor } from './content';
import { held, mediaFitProblem, mediaProblem, precheck, type Sendable } from './checks';
import { failed } from '../network-results';
import { xPlanRefusal } from './x-credits';
import { platformRefusal } from '../guardrails/enforce';

/*
 * The checks of publishing that change nothing, in the publish path's order. publishPost runs them and then takes
 * the lock and spends; validatePublish (POST /api/validate) runs the very same functions and stops there.
 */


/** What checking a post's networks reaches: the credentials' cipher, the upgrade link's base. */
export type NetworkChecksDeps = Pick<Deps, 'cipher' | 'settings' | 'networkLimits'>;

/**
 * Per network, in request order: the actor's allowed_platforms guardrail (platform_not_allowed), X on a plan
 * without X credits (plan_feature), the plan's networks per post (held, networks_per_post), then precheck
 * (available, connected, sign-in valid, media the network needs and takes, the network's own content limits).
 * Answers the refused networks' results and the networks that may be sent.
 */
export async function checkNetworks(deps: NetworkChecksDeps, input: {
  account: Account; valid: ValidPost; connections: Connection[]; guard: Guardrails | undefined; postId: string;
}): Promise<{ results: Map<PlatformName, NetworkResult>; sendable: Sendable[] }> {
  const { account, valid, connections, guard, postId } = input;
  const plan = PLANS[account.plan];
  const results = new Map<PlatformName, NetworkResult>();
  const sendable: Sendable[] = [];
  const xRefusal = valid.platforms.includes('x') ? xPlanRefusal(deps, account) : undefined;
  let place = 0;
  for (const platform of valid.platforms) {
    const refused = platformRefusal(guard, platform);
    if (refused) { results.set(platform, refused); continue; }
    // X is a paid add-on (decisions.md "Plans"): refused on Free first, so it never takes one of the plan's places
    if (platform === 'x' && xRefusal) { results.set(platform, xRefusal); continue; }
    // the plan's places go by request order: a network keeps its place whatever its own checks say
    if (plan.networks_per_post !== null && place++ >= plan.networks_per_post) {
      results.set(platform, held(platform, plan, upgradeUrl(deps, account)));
      continue;
    }
    const checked = await precheck(deps, platform, connections.find((c) => c.platform === platform), contentFor(valid.payload, platform, postId));
    if ('ok' in checked) results.set(platform, checked);
    else sendable.push(checked);
  }
  return { results, sendable };
}

/**
 * Checks each distinct media link once (deps.media.probe: through the address guard, then a download of its
 * head); networks with an unreachable link fail (media_unreachable), and the kinds, types and sizes the links
 * really have replace the guesses before the media rules run again.
 */
export async function checkMedia(deps: Pick<Deps, 'media' | 'networkLimits'>, sendable: Sendable[], results: Map<PlatformName, NetworkResult>): Promise<Sendable[]> {
  const urls = [...new Set(sendable.flatMap((s) => s.content.media.map((m) => m.url)))];
  const probes = new Map(await Promise.all(urls.map(async (u) => [u, await deps.media.probe(u)] as const)));
  const kept: Sendable[] = [];
  for (const s of sendable) {
    const bad = s.content.media.map((m) => ({ m, p: probes.get(m.url)! })).find(({ p }) => !p.ok);
    if (bad && !bad.p.ok) {
      results.set(s.platform, failed(s.platform, 'media_unreachable', `${stripQuery(bad.m.url)}: ${bad.p.reason}`));
      continue;
    }
    const content = { ...s.content, media: s.content.media.map((m) => { const p = probes.get(m.url)!; return p.ok ? { ...m, kind: p.kind, content_type: p.content_type, ...(p.bytes !== undefined ? { bytes: p.bytes } : {}) } : m; }) };
    const problem = mediaProblem(s.platform, content) ?? mediaFitProblem(deps, s.platform, content);
    if (problem) results.set(s.platform, problem);
    else kept.push({ ...s, content });
  }
  return kept;
}

const stripQuery = (u: string) => u.split('?')[0];

/** A network past the plan's posts a month: limit_reached with the upgrade link. */
export function postsUsedUp(deps: Pick<Deps, 'settings'>, account: Account, platform: PlatformName): NetworkResult {
  const plan = PLANS[account.plan];
  return failed(platform, 'limit_reached', `The ${plan.name} plan's ${plan.posts_per_month} posts a month are used up`, { upgrade_url: upgradeUrl(deps, account) });
}
