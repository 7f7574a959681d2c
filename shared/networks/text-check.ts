import type { PlatformName } from '../domain/platforms';
import { textProblems, type PostShape, type PostTexts, type TextRule } from '../domain/text-length';
import type { Failure, PublishContent } from '../ports/networks';
import { rejected } from './failures';

/**
 * The adapters' length check (per-network `text_too_long` of POST /api/post) of a post under the network's text rule
 * (`TEXT_RULE` of its limits.ts), through THE length validator (shared/domain/text-length.ts) that the AI drafter
 * also fits its drafts to. Too many hashtags is `rejected`.
 */
export function lengthFailure(platform: PlatformName, rule: TextRule, post: PostTexts, shape: PostShape = {}): Failure | undefined {
  const problem = textProblems(platform, rule, post, shape).find((p) => p.kind === 'too_long' || p.kind === 'too_many_bytes' || p.kind === 'too_many_hashtags');
  if (!problem) return undefined;
  return rejected(problem.message, problem.kind === 'too_many_hashtags' ? 'rejected' : 'text_too_long');
}

/** The kinds of a post's media (what the length limit of some networks depends on). */
export const mediaKinds = (content: Pick<PublishContent, 'media'>) => content.media.map((m) => m.kind);
