/**
 * Minimal declarations for autocannon 8 (it ships no types): only the programmatic API the benchmarks use
 * (bench/me.bench.ts). Call without a callback: the returned instance is a thenable resolving to the result.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Request extends RequestParams {
      /** Called before each request of this entry; answer the params to send (falsy: the client resets). */
      setupRequest?: (req: RequestParams, context: Record<string, unknown>) => RequestParams | null | undefined;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }

    interface Options {
      url: string | string[];
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      pipelining?: number;
      /** Seconds. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      /** Runs a first pass with these overrides whose figures are reported apart (result.warmup). */
      warmup?: { connections?: number; duration?: number };
      workers?: number;
      bailout?: number;
      expectBody?: string;
      excludeErrorStats?: boolean;
      renderProgressBar?: boolean;
      renderResultsTable?: boolean;
    }

    /** Aggregated histogram: mean/stddev/min/max plus percentiles as p<n> (p97_5, p99_9 ...). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      sent?: number;
      totalCount?: number;
      p0_001: number;
      p0_01: number;
      p0_1: number;
      p1: number;
      p2_5: number;
      p10: number;
      p25: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      p99_99: number;
      p99_999: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      pipelining: number;
      workers?: number;
      /** Seconds actually run. */
      duration: number;
      start: Date;
      finish: Date;
      samples: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds. */
      latency: Histogram;
      /** Requests per second (one sample a second); `total` is the completed count. */
      requests: Histogram;
      /** Bytes per second. */
      throughput: Histogram;
      warmup?: Result;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      opts: Options;
      catch<T = never>(onrejected?: ((reason: unknown) => T | PromiseLike<T>) | null): Promise<Result | T>;
    }
  }

  function autocannon(opts: autocannon.Options): autocannon.Instance;
  function autocannon(opts: autocannon.Options, cb: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
