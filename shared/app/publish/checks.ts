import type { Deps } from '../deps';
import type { Connection } from '../../ports/publishing';
import type { Plan } from '../../domain/plans';
import { platform as platformInfo, type PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import type { PublishContent } from '../../ports/networks';
import { failed, fromFailure } from '../network-results';
import { readCredentials } from '../oauth/credentials';

export interface Sendable {
  platform: PlatformName;
  connection: Connection;
  content: PublishContent;
  credentials: Record<string, string>;
}

/**
 * The checks of one network that need no network call, in spec order: available, connected in the brand,
 * something to publish, the media the network needs and can take, then the network's own limits (its content check,
 * the same function its adapter runs, read through the NetworkLimits port).
 */
export async function precheck(deps: Pick<Deps, 'cipher' | 'networkLimits'>, platform: PlatformName, connection: Connection | undefined, content: PublishContent): Promise<Sendable | NetworkResult> {
  const info = platformInfo(platform);
  if (!info.available) return failed(platform, 'platform_unavailable', `${platform} cannot be used right now`);
  if (!connection) return failed(platform, 'not_connected', `${platform} is not connected in this brand`);
  if (connection.status === 'reauth_required') return failed(platform, 'reauth_required', `The ${platform} connection needs a new sign-in`);
  const kindProblem = mediaProblem(platform, content) ?? requiredFields(platform, content) ?? mediaFitProblem(deps, platform, content);
  if (kindProblem) return kindProblem;
  const credentials = await readCredentials(deps, connection);
  const refused = deps.networkLimits.checkContent(platform, content, credentials);
  if (refused) return fromFailure(platform, refused);
  return { platform, connection, content, credentials };
}

/** media_required / bad_media / empty_text from the platform table (needs, max_media). */
export function mediaProblem(platform: PlatformName, content: PublishContent): NetworkResult | undefined {
  const info = platformInfo(platform);
  const kinds = content.media.map((m) => m.kind);
  if (info.needs === 'video' && !kinds.includes('video')) return failed(platform, 'media_required', `${platform} needs a video (video_url)`);
  if (info.needs === 'photo_or_video' && kinds.length === 0) return failed(platform, 'media_required', `${platform} needs a photo or a video`);
  if (content.media.length > info.max_media) return failed(platform, 'bad_media', `${platform} takes at most ${info.max_media} media item${info.max_media === 1 ? '' : 's'}; this post has ${content.media.length}`);
  if (info.needs === 'video' && kinds.some((k) => k !== 'video')) return failed(platform, 'bad_media', `${platform} takes a video only`);
  if (content.text.trim() === '' && content.media.length === 0) return failed(platform, 'empty_text', `Nothing to publish on ${platform}: no text and no media`);
  return undefined;
}

/** Alt text over the network's limit; type and size (when the media check learned them) the network does not take. */
export function mediaFitProblem(deps: Pick<Deps, 'networkLimits'>, platform: PlatformName, content: PublishContent): NetworkResult | undefined {
  const f = deps.networkLimits.checkMedia(platform, content.media);
  return f ? fromFailure(platform, f) : undefined;
}

/** Fields a network cannot post without (spec §2.2: Reddit needs the subreddit). */
export function requiredFields(platform: PlatformName, content: PublishContent): NetworkResult | undefined {
  if (platform === 'reddit' && !content.subreddit?.trim()) return failed(platform, 'subreddit_required', 'reddit needs subreddit: the community to post in, without the r/ prefix');
  return undefined;
}

/** Free plan: networks beyond the plan's networks per post are held, never sent, and spend nothing. */
export function held(platform: PlatformName, plan: Plan, upgradeUrl: string): NetworkResult {
  return failed(platform, 'networks_per_post', `The ${plan.name} plan sends ${plan.networks_per_post} networks per post; ${platform} was held and not sent`, { held: true, upgrade_url: upgradeUrl });
}
