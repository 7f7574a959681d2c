import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { PlatformName } from '../../domain/platforms';
import { isPlatformName } from '../../domain/platforms';
import { guessKind } from '../../domain/post';
import type { PostShape } from '../../domain/text-length';
import { BadRequestError, ServiceUnavailableError } from '../../domain/errors';
import { AiUnavailableError, type DraftBrief } from '../../ports/ai';
import type { DraftView } from '../../api/ai-schemas';
import { buildJob } from './brief';
import { MalformedAnswer, parseAnswer } from './answer';
import { fitDraft, UnfitDraft } from './fit';
import { aiDraftsLine, reserveAiDraft } from './quota';
import { log, errorFields } from '../../log';

export type AiDeps = Pick<Deps, 'ai' | 'counters' | 'clock' | 'settings' | 'networkLimits'>;

export const DEFAULT_AI_TIMEOUT_MS = 20_000;

/** Retry-After of a 503 ai_unavailable when the provider named no wait. */
const DEFAULT_RETRY_AFTER: Record<AiUnavailableError['reason'], number> = { throttled: 10, timeout: 5, failed: 5 };

/** Known, unrepeated network names (400 invalid_request naming the others). */
export function checkPlatforms(names: string[]): PlatformName[] {
  const unknown = names.filter((n) => !isPlatformName(n));
  if (unknown.length) throw new BadRequestError(`Unknown network${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; GET /api/platforms lists them`, { details: { platforms: unknown } });
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length) throw new BadRequestError(`A network is named twice: ${repeated.join(', ')}`, { details: { platforms: repeated } });
  return names as PlatformName[];
}

/** The post's shape from the media the caller will send with it (kind from `type`, else the URL). */
export function shapeOf(media: Array<{ url: string; type?: 'image' | 'video' }> | undefined): PostShape {
  const items = (media ?? []).map((m) => ({ url: m.url, kind: m.type ?? guessKind(m.url) }));
  const video = items.find((m) => m.kind === 'video');
  return { media: items.map((m) => m.kind), ...(video ? { videoUrl: video.url } : {}) };
}

function unavailable(err: AiUnavailableError): ServiceUnavailableError {
  const retryAfter = err.retryAfterSeconds ?? DEFAULT_RETRY_AFTER[err.reason];
  return new ServiceUnavailableError(`The AI provider is unavailable (${err.reason}): nothing was spent; try again in ${retryAfter} s`, {
    code: 'ai_unavailable', details: { reason: err.reason, retry_after: retryAfter }, headers: { 'Retry-After': String(retryAfter) },
  });
}

/**
 * Asks the provider and makes every draft fit: a malformed or unusable answer is asked again once (with a
 * corrective note), then it is a provider failure. Provider failures are AiUnavailableError. Both tries share one
 * deadline (AI_TIMEOUT_MS).
 */
async function askProvider(deps: AiDeps, brief: DraftBrief, shape: PostShape) {
  const usage = { input_tokens: 0, output_tokens: 0 };
  let problem = '';
  // one deadline for both tries, so a retry never outlasts the request (API Gateway's 29 s)
  const signal = AbortSignal.timeout(deps.settings.aiTimeoutMs ?? DEFAULT_AI_TIMEOUT_MS);
  for (let attempt = 0; attempt < 2; attempt++) {
    let reply;
    try {
      reply = await deps.ai.draft(buildJob(brief, attempt > 0), signal);
    } catch (err) {
      if (err instanceof AiUnavailableError) throw err;
      log.warn('ai provider failed', { provider: deps.ai.name, ...errorFields(err) });
      throw new AiUnavailableError('the provider failed', 'failed', undefined, { cause: err });
    }
    usage.input_tokens += reply.usage.input_tokens;
    usage.output_tokens += reply.usage.output_tokens;
    try {
      const days = parseAnswer(reply.text, brief).map((drafts) => {
        const out: Record<string, DraftView> = {};
        for (const n of brief.networks) out[n.platform] = fitDraft(n, deps.networkLimits.textRule(n.platform), drafts[n.platform], shape);
        return out;
      });
      return { days, usage };
    } catch (err) {
      if (!(err instanceof MalformedAnswer || err instanceof UnfitDraft)) throw err;
      problem = err.message;
      log.warn('ai answer unusable', { provider: deps.ai.name, attempt: attempt + 1, problem });
    }
  }
  throw new AiUnavailableError(`the provider's answer could not be used twice (${problem})`, 'failed');
}

/**
 * One drafting call under the plan's AI drafts a day: reserve one (429 ai_drafts_limit_reached when used up), ask
 * the provider, give the draft back when the provider fails (503 ai_unavailable with Retry-After).
 */
export async function draftWithAllowance(deps: AiDeps, account: Account, brief: DraftBrief, shape: PostShape) {
  const reservation = await reserveAiDraft(deps, account);
  let result;
  try {
    result = await askProvider(deps, brief, shape);
  } catch (err) {
    await reservation.release();
    if (err instanceof AiUnavailableError) throw unavailable(err);
    throw err;
  }
  return {
    days: result.days,
    provider: deps.ai.name,
    model: deps.ai.model,
    usage: { ...result.usage, ai_drafts_per_day: await aiDraftsLine(deps, account) },
  };
}
