import type { PlatformName } from '../domain/platforms';
import type { LengthUnit } from '../domain/text-length';

/**
 * The AI drafting provider (shared/app/ai): one call turns a drafting job into the model's raw answer text, which the
 * use case parses and checks. Adapters: Amazon Bedrock Converse (AWS), an OpenAI-compatible endpoint (AI_BASE_URL),
 * and the deterministic local drafter (`npm start`). A provider is never given anything of the account beyond the
 * job: no keys, tokens, connections or other brands.
 */
export interface DraftProvider {
  /** Shown to the caller as `provider`: `bedrock`, `openai` or `local` (never mistaken for a model). */
  readonly name: 'bedrock' | 'openai' | 'local';
  /** The model id asked (`local-drafter` for the local drafter). */
  readonly model: string;
  /**
   * Answers the model's text (expected: the JSON document the system instruction asks for). Throws
   * AiUnavailableError on a throttle, a timeout (the signal aborted) or any failure of the service.
   */
  draft(job: DraftJob, signal: AbortSignal): Promise<ModelReply>;
}

/** What one network needs from a draft, in its own units (from the length validator). */
export interface NetworkBrief {
  platform: PlatformName;
  unit: LengthUnit;
  /** Most units per post (caption limit when the post carries media). */
  limit: number;
  thread: boolean;
  first_comment: boolean;
  /** The network shows a title (articles, YouTube, Reddit, TikTok photo posts). */
  title: boolean;
  title_limit?: number;
  max_hashtags?: number;
  /** Long-form (an article) rather than a short post. */
  article: boolean;
}

/** The caller's request, as data (the user content, kept apart from the instructions). */
export interface DraftBrief {
  prompt: string;
  tone?: string;
  language?: string;
  link?: string;
  networks: NetworkBrief[];
  /** 1 for POST /api/generate; 7 for POST /api/week (one post a day, each on its own angle). */
  days: number;
}

export interface DraftJob {
  /** Fixed instructions: the task and the answer's JSON shape. Never holds user content. */
  system: string;
  /** The brief as a JSON document (user content is only ever JSON-escaped data here). */
  user: string;
  brief: DraftBrief;
  maxTokens: number;
  /** JSON Schema of the answer (exactly these days and networks), for providers that can enforce one. */
  schema: Record<string, unknown>;
}

export interface ModelReply {
  text: string;
  usage: { input_tokens: number; output_tokens: number };
}

export type AiFailure = 'throttled' | 'timeout' | 'failed';

/** The provider could not answer: the caller gets 503 ai_unavailable with Retry-After, and no allowance is spent. */
export class AiUnavailableError extends Error {
  constructor(message: string, readonly reason: AiFailure, readonly retryAfterSeconds?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AiUnavailableError';
  }
}
