import diagnostics from 'node:diagnostics_channel';
import type { Worker } from 'node:worker_threads';
import type { HttpHandlerOptions, HttpRequest, HttpResponse, HttpSigner } from '@smithy/types';
import type { SdkRequestHandler } from '../../shared/adapters/local/in-process-transport';

/**
 * Where the local runtime's in-process transports announce each request (the SDK's HTTP client would have announced
 * it on `http.client.request.start`): `{ engine, target }`, target = the `x-amz-target` header (e.g.
 * `DynamoDB_20120810.GetItem`). Published synchronously in the caller's async context (tests count per request).
 */
export const LOCAL_AWS_REQUEST = 'spa:local-aws-request';
const requests = diagnostics.channel(LOCAL_AWS_REQUEST);

/** One request as it crosses to the dynalite thread: what its HTTP handler reads (method, url, headers, body). */
export interface EngineRequest { kind: 'request'; id: number; method: string; url: string; headers: Record<string, string>; body: string }
export interface EngineResponse { kind: 'response'; id: number; status: number; headers: Record<string, string>; body: string }

const urlOf = (r: HttpRequest): string => {
  const q = Object.entries(r.query ?? {}).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).filter((x) => x != null).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(String(x))}`));
  return `${r.path || '/'}${q.length ? `?${q.join('&')}` : ''}`;
};
const bodyOf = (r: HttpRequest): string => {
  const b: unknown = r.body;
  if (b == null) return '';
  if (typeof b === 'string') return b;
  if (b instanceof Uint8Array) return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  throw new Error('in-process transport: streamed request bodies are not supported');
};
const aborted = (signal: HttpHandlerOptions['abortSignal']) => Object.assign(new Error('Request aborted'), { name: 'AbortError', cause: (signal as AbortSignal | undefined)?.reason });
const response = (statusCode: number, headers: Record<string, string>, body: Uint8Array): { response: HttpResponse } => ({ response: { statusCode, headers, body } });

const amzDate = (d: Date) => d.toISOString().replace(/[-:]|\.\d{3}/g, '');

/**
 * The in-process transports' signer, in place of SigV4's hashing and HMACs: the engines behind them check that a
 * request is signed, never the signature (dynalite wants an `AWS4-` Authorization header naming a Credential,
 * SignedHeaders and a Signature, and a date; fauxqs reads the region from the credential scope). So the request
 * gets those headers with the client's access key and the scope, and a signature that is not computed. The IAM
 * simulation of the tests checks each request at the client's `send`, before signing, as before.
 */
const scopeOnly: HttpSigner = {
  async sign(request, identity, props) {
    const date = amzDate(new Date());
    const region = String(props.signingRegion ?? props.region ?? 'us-east-1');
    const service = String(props.signingName ?? props.name ?? 'unknown');
    const key = (identity as { accessKeyId?: string }).accessKeyId ?? 'local';
    request.headers['x-amz-date'] = date;
    request.headers.authorization = `AWS4-HMAC-SHA256 Credential=${key}/${date.slice(0, 8)}/${region}/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=in-process`;
    return request;
  },
};

abstract class InProcessHandler implements SdkRequestHandler {
  /** The clients built over this handler sign with it (shared/adapters/aws/transport-signer.ts). */
  readonly signer = scopeOnly;
  constructor(private readonly engine: 'dynamodb' | 'sqs') {}
  protected abstract send(request: HttpRequest): Promise<{ response: HttpResponse }>;

  handle(request: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
    const signal = options.abortSignal as AbortSignal | undefined;
    if (signal?.aborted) return Promise.reject(aborted(signal));
    if (requests.hasSubscribers) requests.publish({ engine: this.engine, target: request.headers['x-amz-target'] ?? '' });
    const sent = this.send(request);
    if (!signal) return sent;
    // the engine finishes the request on its own (a long poll ends within its wait); the caller stops waiting now
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(aborted(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      sent.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  updateHttpClientConfig(): void { /* nothing to configure: no sockets, no timeouts */ }
  httpHandlerConfigs(): Record<string, never> { return {}; }
  /** Shared by every client of the engine: a client's destroy() must not close it (the runtime's stop does). */
  destroy(): void { /* the engine's owner stops it */ }
}

/**
 * DynamoDB requests to the dynalite thread over its message port: the thread runs dynalite's own HTTP request
 * handler on a request/response pair built from the message, so the engine sees what it sees over HTTP, without a
 * socket, an HTTP parser or a keep-alive pool on either side. A thread that stops or dies fails what is pending.
 */
export class EngineThreadHandler extends InProcessHandler {
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (r: { response: HttpResponse }) => void; reject: (e: Error) => void }>();
  private closed?: Error;

  constructor(private readonly worker: Worker) {
    super('dynamodb');
    worker.on('message', (m: EngineResponse | undefined) => {
      if (m?.kind !== 'response') return;
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      waiting?.resolve(response(m.status, m.headers, Buffer.from(m.body, 'utf8')));
    });
    worker.once('exit', () => this.close(new Error('the DynamoDB engine thread has stopped')));
  }

  protected send(request: HttpRequest): Promise<{ response: HttpResponse }> {
    if (this.closed) return Promise.reject(this.closed);
    const id = ++this.seq;
    // postMessage copies the headers (structured clone): no copy of our own
    const message: EngineRequest = { kind: 'request', id, method: request.method, url: urlOf(request), headers: request.headers, body: bodyOf(request) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(message);
    });
  }

  close(err: Error): void {
    this.closed ??= err;
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }
}

/** fauxqs's SQS router (JSON protocol): the action named by `x-amz-target` run on the parsed body, as its POST / route does. */
export interface SqsRouter {
  handle(request: { method: string; url: string; headers: Record<string, string>; body: unknown }, reply: SqsReply): Promise<unknown>;
}
interface SqsReply { status(code: number): SqsReply; header(name: string, value: string): SqsReply }

/**
 * SQS requests to fauxqs's own SQS router on this thread: the body parsed as its route's JSON parser does, the
 * groups noted as its hook does (`onRequest`: infra/local/fair-queue.ts noteGroups), the router's answer serialized
 * as fastify does, without fastify's routing, hooks and reply pipeline or light-my-request's fake streams.
 */
export class SqsRouterHandler extends InProcessHandler {
  constructor(private readonly router: SqsRouter, private readonly onRequest: (body: unknown) => void) { super('sqs'); }

  protected async send(request: HttpRequest): Promise<{ response: HttpResponse }> {
    const json = { 'content-type': 'application/x-amz-json-1.0' };
    let body: unknown;
    try {
      body = JSON.parse(bodyOf(request) || '{}');
    } catch {
      return response(400, json, Buffer.from(JSON.stringify({ __type: 'com.amazonaws.sqs#SerializationException', message: 'The request body is not JSON' })));
    }
    this.onRequest(body);
    let status = 200;
    const headers: Record<string, string> = {};
    const reply: SqsReply = {
      status(code) { status = code; return reply; },
      header(name, value) { headers[name.toLowerCase()] = String(value); return reply; },
    };
    try {
      const out = await this.router.handle({ method: request.method, url: urlOf(request), headers: { ...request.headers }, body }, reply);
      return response(status, { ...json, ...headers }, Buffer.from(JSON.stringify(out ?? {})));
    } catch (err) {
      // what fastify answers for an error the router does not turn into an SQS error
      return response(500, json, Buffer.from(JSON.stringify({ __type: 'com.amazonaws.sqs#InternalError', message: (err as Error)?.message ?? String(err) })));
    }
  }
}
