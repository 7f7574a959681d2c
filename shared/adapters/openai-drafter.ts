import { AiUnavailableError, type DraftJob, type DraftProvider, type ModelReply } from '../ports/ai';
import { trimBase } from '../domain/values';

export interface OpenAiCompatibleOptions {
  /** The API base, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch?: typeof fetch;
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

function retryAfterOf(headers: Headers): number | undefined {
  const n = Number(headers.get('retry-after'));
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : undefined;
}

/**
 * The DraftProvider on an OpenAI-compatible chat completions endpoint (AI_BASE_URL; e.g. a local Ollama): the
 * fixed instruction as the system message, the brief (JSON) as the user message, JSON output requested with
 * response_format. 429 → throttled (with the server's Retry-After), an abort → timeout, any other failure → failed.
 */
export class OpenAiCompatibleDrafter implements DraftProvider {
  readonly name = 'openai' as const;
  readonly model: string;
  private readonly url: string;

  constructor(private readonly opts: OpenAiCompatibleOptions) {
    this.model = opts.model;
    this.url = `${trimBase(opts.baseUrl)}/chat/completions`;
  }

  async draft(job: DraftJob, signal: AbortSignal): Promise<ModelReply> {
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify({
          model: this.model,
          messages: [{ role: 'system', content: job.system }, { role: 'user', content: job.user }],
          max_tokens: job.maxTokens,
          temperature: 0.4,
          response_format: { type: 'json_object' },
        }),
        signal,
        redirect: 'error',
      });
    } catch (err) {
      if (signal.aborted) throw new AiUnavailableError('The AI endpoint did not answer in time', 'timeout', undefined, { cause: err });
      throw new AiUnavailableError('The AI endpoint could not be reached', 'failed', undefined, { cause: err });
    }
    if (res.status === 429) throw new AiUnavailableError('The AI endpoint is throttling requests', 'throttled', retryAfterOf(res.headers));
    if (!res.ok) throw new AiUnavailableError(`The AI endpoint answered ${res.status}`, res.status === 503 ? 'throttled' : 'failed', retryAfterOf(res.headers));
    let body: ChatCompletion;
    try {
      body = (await res.json()) as ChatCompletion;
    } catch (err) {
      if (signal.aborted) throw new AiUnavailableError('The AI endpoint did not answer in time', 'timeout', undefined, { cause: err });
      throw new AiUnavailableError('The AI endpoint answered something other than JSON', 'failed', undefined, { cause: err });
    }
    const content = body.choices?.[0]?.message?.content;
    return {
      text: typeof content === 'string' ? content : '',
      usage: { input_tokens: body.usage?.prompt_tokens ?? 0, output_tokens: body.usage?.completion_tokens ?? 0 },
    };
  }
}
