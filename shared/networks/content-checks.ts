import type { PlatformName } from '../domain/platforms';
import type { Failure, PublishContent } from '../ports/networks';
import { checkBluesky } from './bluesky/limits';
import { checkDevto } from './devto/limits';
import { checkDiscord } from './discord/limits';
import { checkFacebook } from './facebook/limits';
import { checkHashnode } from './hashnode/limits';
import { checkInstagram } from './instagram/limits';
import { checkLinkedin } from './linkedin/limits';
import { checkContent as checkMastodon } from './mastodon/limits';
import { checkNostr } from './nostr/limits';
import { checkReddit } from './reddit/limits';
import { checkSlack } from './slack/limits';
import { checkTelegram } from './telegram/limits';
import { checkContent as checkTikTok } from './tiktok/limits';
import { checkWordpress } from './wordpress/limits';
import { checkContent as checkX } from './x/limits';
import { checkContent as checkYouTube } from './youtube/limits';
import { checkThreads } from './threads/limits';
import { checkPinterest } from './pinterest/limits';
import { checkGoogleBusiness } from './google_business/limits';

/** A network's checks that need no network call (length limits, media fit): undefined when the content fits. */
export type ContentCheck = (content: PublishContent, credentials: Record<string, string>) => Failure | undefined;

/**
 * Every network's content checks, apart from its send code: the API side (post, schedule, approvals, MCP, AI drafts,
 * dashboard) validates with these and carries no adapter, and each adapter's `check` is the same function (one
 * definition per limit, in shared/networks/<name>/limits.ts).
 */
export const CONTENT_CHECKS: Record<PlatformName, ContentCheck> = {
  telegram: checkTelegram,
  bluesky: checkBluesky,
  mastodon: checkMastodon,
  discord: checkDiscord,
  wordpress: checkWordpress,
  devto: checkDevto,
  hashnode: checkHashnode,
  slack: checkSlack,
  nostr: checkNostr,
  tiktok: checkTikTok,
  youtube: checkYouTube,
  reddit: checkReddit,
  linkedin: checkLinkedin,
  facebook: checkFacebook,
  instagram: checkInstagram,
  x: checkX,
  threads: checkThreads,
  pinterest: checkPinterest,
  google_business: checkGoogleBusiness,
};
