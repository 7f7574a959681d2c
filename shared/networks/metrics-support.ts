import type { MetricName, MetricsReading } from '../domain/analytics';
import type { MetricsAnswer } from '../ports/networks';
import { classifyStatus, failureFromError, type HttpResult } from './http';

/** A count as networks send it: a number, or a string of digits (YouTube); undefined otherwise (never a made-up 0). */
export function count(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}

/** A reading from [our figure, the network's metric name, its value] triples: figures without a count are left out (null). */
export function reading(triples: Array<[MetricName, string, unknown]>): MetricsReading {
  const out: MetricsReading = { metrics: {}, source: {} };
  for (const [ours, theirs, value] of triples) {
    const n = count(value);
    if (n === undefined) continue;
    out.metrics[ours] = n;
    out.source[ours] = theirs;
  }
  return out;
}

/** Runs a metrics read; thrown network errors (timeout, unreachable) become the Failure the sweep records. */
export async function readingMetrics(fn: () => Promise<MetricsAnswer>): Promise<MetricsAnswer> {
  try {
    return await fn();
  } catch (err) {
    return failureFromError(err);
  }
}

/** A non-2xx answer of a metrics read, sorted as for a publish (429 → rate_limited, 401/403 → reauth, 5xx → transient). */
export function metricsFailure(network: string, res: HttpResult): MetricsAnswer {
  return classifyStatus(res, `${network} answered HTTP ${res.status} reading post analytics: ${res.text.slice(0, 200)}`);
}
