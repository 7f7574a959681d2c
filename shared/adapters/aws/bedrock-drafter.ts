import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { AiUnavailableError, type DraftJob, type DraftProvider, type ModelReply } from '../../ports/ai';

/** Bedrock Runtime client; `endpoint` (with static local credentials) points it at a loopback fake in tests. */
export function bedrockClient(opts: { region: string; endpoint?: string }): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: opts.region,
    // one try: a throttle or a failure is answered 503 with Retry-After at once instead of waiting out SDK backoff
    maxAttempts: 1,
    ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}

const THROTTLED = new Set(['ThrottlingException', 'ServiceQuotaExceededException', 'TooManyRequestsException']);
const TIMED_OUT = new Set(['ModelTimeoutException', 'AbortError', 'TimeoutError']);

/**
 * The DraftProvider on Amazon Bedrock Runtime Converse: the fixed instruction as the system block, the brief (JSON)
 * as the one user message, temperature low for stable drafts. The answer's text blocks are joined; the use case
 * parses and checks them. Throttles, model timeouts, aborts and service errors become AiUnavailableError.
 */
export class BedrockDrafter implements DraftProvider {
  readonly name = 'bedrock' as const;

  constructor(private readonly client: BedrockRuntimeClient, readonly model: string) {}

  async draft(job: DraftJob, signal: AbortSignal): Promise<ModelReply> {
    let out: ConverseCommandOutput;
    try {
      out = await this.client.send(new ConverseCommand({
        modelId: this.model,
        system: [{ text: job.system }],
        messages: [{ role: 'user', content: [{ text: job.user }] }],
        inferenceConfig: { maxTokens: job.maxTokens, temperature: 0.4 },
      }), { abortSignal: signal });
    } catch (err) {
      const name = (err as { name?: string }).name ?? '';
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (THROTTLED.has(name) || status === 429) throw new AiUnavailableError('Bedrock is throttling requests', 'throttled', undefined, { cause: err });
      if (TIMED_OUT.has(name) || signal.aborted) throw new AiUnavailableError('Bedrock did not answer in time', 'timeout', undefined, { cause: err });
      throw new AiUnavailableError(`Bedrock failed (${name || status || 'error'})`, 'failed', undefined, { cause: err });
    }
    const text = (out.output?.message?.content ?? []).map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');
    return { text, usage: { input_tokens: out.usage?.inputTokens ?? 0, output_tokens: out.usage?.outputTokens ?? 0 } };
  }
}
