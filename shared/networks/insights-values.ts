import { isRecord } from '../domain/values';

/**
 * The values of a Meta insights answer (Facebook, Instagram, Threads): `data: [{name, values: [{value}]}]` or
 * `data: [{name, total_value: {value}}]`, by metric name. A metric the network did not answer is absent.
 */
export function insightValues(body: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  for (const d of data) {
    if (!isRecord(d) || typeof d.name !== 'string') continue;
    const total = isRecord(d.total_value) ? d.total_value.value : undefined;
    const first = Array.isArray(d.values) && isRecord(d.values[0]) ? d.values[0].value : undefined;
    out[d.name] = total ?? first;
  }
  return out;
}
