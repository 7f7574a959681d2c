/** Percentiles and number formatting for bench output. */

/** Nearest-rank percentile (p in 0–100) of the values; NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '–');

/** Prints aligned `label  value` rows. */
export function printRows(rows: Array<[string, string]>, indent = '  '): void {
  const w = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${indent}${k.padEnd(w)}  ${v}`);
}
