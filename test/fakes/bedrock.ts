import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { FakeServer, type FakeReply, type RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';

/**
 * A loopback Amazon Bedrock Runtime (Converse: POST /model/{modelId}/converse), reached through the client's
 * `endpoint` override. The Bedrock Runtime client speaks HTTP/2 (its default request handler), so this fake is a
 * cleartext HTTP/2 server. Each call takes the next queued answer: a model text (wrapped as a Converse response), a
 * throttle (429 ThrottlingException), or any raw reply (status, headers, body; `hang` never answers).
 */
export type BedrockAnswer = { text: string; inputTokens?: number; outputTokens?: number } | { throttle: true } | { raw: FakeReply };

export class BedrockFake {
  readonly requests: RecordedRequest[] = [];
  readonly answers: BedrockAnswer[] = [];
  private server?: http2.Http2Server;
  private readonly sessions = new Set<http2.ServerHttp2Session>();

  async start(): Promise<string> {
    this.server = http2.createServer();
    this.server.on('session', (s) => { this.sessions.add(s); s.on('close', () => this.sessions.delete(s)); });
    this.server.on('stream', (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: unknown;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        const url = new URL(String(headers[':path'] ?? '/'), 'http://127.0.0.1');
        const req: RecordedRequest = { method: String(headers[':method']), path: url.pathname, url, headers: headers as never, body, text, json };
        this.requests.push(req);
        const reply = this.answer(req);
        if (reply.hang) return;
        const payload = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        stream.respond({ ':status': reply.status ?? 200, 'content-type': 'application/json', ...reply.headers });
        stream.end(payload);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sessions) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private answer(req: RecordedRequest): FakeReply {
    if (req.method !== 'POST' || !/^\/model\/[^/]+\/converse$/.test(req.path)) return { status: 404, body: { message: 'no route' } };
    const next = this.answers.shift();
    if (!next) return { status: 500, headers: { 'x-amzn-errortype': 'InternalServerException' }, body: { message: 'no answer queued' } };
    if ('throttle' in next) return { status: 429, headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' }, body: { message: 'Too many requests, please wait before trying again.' } };
    if ('raw' in next) return next.raw;
    const inputTokens = next.inputTokens ?? 120;
    const outputTokens = next.outputTokens ?? 340;
    return {
      status: 200,
      body: {
        output: { message: { role: 'assistant', content: [{ text: next.text }] } },
        stopReason: 'end_turn',
        usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
        metrics: { latencyMs: 420 },
      },
    };
  }
}

/** A loopback OpenAI-compatible chat completions endpoint (POST /v1/chat/completions). */
export class OpenAiFake extends FakeServer {
  readonly answers: Array<{ content: string } | { raw: FakeReply }> = [];

  constructor() {
    super((req) => {
      if (req.method !== 'POST' || req.path !== '/v1/chat/completions') return { status: 404, body: { error: { message: 'no route' } } };
      const next = this.answers.shift();
      if (!next) return { status: 500, body: { error: { message: 'no answer queued' } } };
      if ('raw' in next) return next.raw;
      return {
        status: 200,
        body: {
          id: 'chatcmpl-1', object: 'chat.completion', created: 1_760_000_000, model: 'llama3.1',
          choices: [{ index: 0, message: { role: 'assistant', content: next.content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 90, completion_tokens: 210, total_tokens: 300 },
        },
      };
    });
  }
}
