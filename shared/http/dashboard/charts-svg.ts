import { escapeHtml as e } from '../reply';

/**
 * Server-rendered SVG charts for the dashboard (no script, nothing the strict CSP forbids): each chart is a figure
 * with a title and a one-line description the SVG is labelled by, axes with ticks, a legend in words, a tooltip per
 * mark (`<title>`), and its figures as a table under a `<details>` (keyboard: Tab, Enter) — the text alternative.
 */

/** Colours for series, each at least 4.5:1 against white (marks and legend swatches stay visible). */
export const SERIES_COLOURS = ['#0b57d0', '#0a6b2c', '#8a4b00', '#6f42c1', '#00796b', '#c2185b', '#5d4037', '#37474f', '#1a5e8a', '#7b5800'] as const;
export const OUTCOME_COLOURS = { published: '#0a6b2c', failed: '#b3261e', pending: '#6b6b6b' } as const;

export interface Series {
  name: string;
  colour: string;
  values: number[];
}

const W = 720;
const H = 260;
const PAD = { left: 48, right: 12, top: 12, bottom: 36 };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const fmt = (n: number) => n.toLocaleString('en-US');

/** "2026-11-27" → "Nov 27". */
export const shortDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/** A round axis maximum and step for values up to `max` (about four gridlines). */
export function niceScale(max: number): { top: number; step: number } {
  if (max <= 0) return { top: 4, step: 1 };
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw && (s >= 1 || Number.isInteger(1 / s)))!;
  const stepInt = Math.max(1, Math.ceil(step));
  return { top: Math.ceil(max / stepInt) * stepInt, step: stepInt };
}

function yAxis(top: number, step: number, plotH: number): string {
  let out = '';
  for (let v = 0; v <= top; v += step) {
    const y = PAD.top + plotH - (v / top) * plotH;
    out += `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="${v === 0 ? '#1b1b1b' : '#d6d6d6'}" stroke-width="1"/>` +
      `<text x="${PAD.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="12" fill="#1b1b1b">${fmt(v)}</text>`;
  }
  return out;
}

function xLabels(categories: string[], slot: number): string {
  const every = categories.length <= 10 ? 1 : categories.length <= 31 ? 5 : 15;
  return categories.map((c, i) => ((categories.length - 1 - i) % every === 0
    ? `<text x="${(PAD.left + slot * i + slot / 2).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="12" fill="#1b1b1b">${e(shortDay(c))}</text>` : '')).join('');
}

function legend(series: Series[]): string {
  return `<ul class="legend">${series.map((s) => `<li><span class="swatch" style="background:${s.colour}"></span>${e(s.name)}</li>`).join('')}</ul>`;
}

function figure(id: string, title: string, desc: string, svgBody: string, after: string): string {
  return `<figure class="chart" id="${e(id)}"><figcaption id="${e(id)}-title"><b>${e(title)}</b></figcaption>` +
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${e(id)}-svg-title ${e(id)}-svg-desc" focusable="false">` +
    `<title id="${e(id)}-svg-title">${e(title)}</title><desc id="${e(id)}-svg-desc">${e(desc)}</desc>${svgBody}</svg>${after}</figure>`;
}

function table(id: string, head: string[], rows: Array<Array<string | number>>): string {
  return `<details><summary>The figures as a table</summary><table id="${e(id)}-table"><thead><tr>${head.map((h) => `<th scope="col">${e(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${e(String(c))}</th>` : `<td>${typeof c === 'number' ? fmt(c) : e(c)}</td>`)).join('')}</tr>`).join('')}</tbody></table></details>`;
}

/** Stacked bars per category (a day), one stack segment per series, with the legend and the table. */
export function stackedBarChart(opts: { id: string; title: string; desc: string; categories: string[]; series: Series[]; extraColumns?: Array<{ name: string; values: number[] }> }): string {
  const { categories, series } = opts;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const totals = categories.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const { top, step } = niceScale(Math.max(0, ...totals));
  const slot = plotW / Math.max(1, categories.length);
  const barW = Math.max(1, slot * 0.7);
  let bars = '';
  categories.forEach((c, i) => {
    let y = PAD.top + plotH;
    for (const s of series) {
      const v = s.values[i] ?? 0;
      if (v <= 0) continue;
      const h = (v / top) * plotH;
      y -= h;
      bars += `<rect x="${(PAD.left + slot * i + (slot - barW) / 2).toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${s.colour}" stroke="#fff" stroke-width="0.5"><title>${e(`${shortDay(c)} · ${s.name}: ${fmt(v)}`)}</title></rect>`;
    }
  });
  const head = ['Day', ...(opts.extraColumns ?? []).map((x) => x.name), ...series.map((s) => s.name), 'Total'];
  const rows = categories.map((c, i) => [c, ...(opts.extraColumns ?? []).map((x) => x.values[i] ?? 0), ...series.map((s) => s.values[i] ?? 0), totals[i]]);
  return figure(opts.id, opts.title, opts.desc, yAxis(top, step, plotH) + bars + xLabels(categories, slot), legend(series) + table(opts.id, head, rows));
}

/** One line per series over the categories (days), dots on each point, with the legend and the table. */
export function lineChart(opts: { id: string; title: string; desc: string; categories: string[]; series: Series[] }): string {
  const { categories, series } = opts;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const { top, step } = niceScale(Math.max(0, ...series.flatMap((s) => s.values)));
  const slot = plotW / Math.max(1, categories.length);
  const x = (i: number) => PAD.left + slot * i + slot / 2;
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  let marks = '';
  for (const s of series) {
    marks += `<polyline fill="none" stroke="${s.colour}" stroke-width="2" points="${s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`;
    if (categories.length <= 31) {
      marks += s.values.map((v, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${s.colour}"><title>${e(`${shortDay(categories[i])} · ${s.name}: ${fmt(v)}`)}</title></circle>`).join('');
    }
  }
  const rows = categories.map((c, i) => [c, ...series.map((s) => s.values[i] ?? 0)]);
  return figure(opts.id, opts.title, opts.desc, yAxis(top, step, plotH) + marks + xLabels(categories, slot), legend(series) + table(opts.id, ['Day', ...series.map((s) => s.name)], rows));
}

/** Horizontal bars, one per label (e.g. failures by code), the value written at the end of each bar. */
export function horizontalBarChart(opts: { id: string; title: string; desc: string; items: Array<{ label: string; value: number }>; colour: string; valueName: string }): string {
  const rowH = 26;
  const labelW = 190;
  const h = Math.max(1, opts.items.length) * rowH + 8;
  const max = Math.max(1, ...opts.items.map((i) => i.value));
  const plotW = W - labelW - 70;
  const bars = opts.items.map((it, i) => {
    const y = 4 + i * rowH;
    const w = Math.max(2, (it.value / max) * plotW);
    return `<text x="${labelW - 8}" y="${y + 17}" text-anchor="end" font-size="13" fill="#1b1b1b">${e(it.label)}</text>` +
      `<rect x="${labelW}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${opts.colour}"><title>${e(`${it.label}: ${fmt(it.value)}`)}</title></rect>` +
      `<text x="${(labelW + w + 6).toFixed(1)}" y="${y + 17}" font-size="13" fill="#1b1b1b">${fmt(it.value)}</text>`;
  }).join('');
  return `<figure class="chart" id="${e(opts.id)}"><figcaption id="${e(opts.id)}-title"><b>${e(opts.title)}</b></figcaption>` +
    `<svg viewBox="0 0 ${W} ${h}" role="img" aria-labelledby="${e(opts.id)}-svg-title ${e(opts.id)}-svg-desc" focusable="false"><title id="${e(opts.id)}-svg-title">${e(opts.title)}</title><desc id="${e(opts.id)}-svg-desc">${e(opts.desc)}</desc>` +
    `<line x1="${labelW}" x2="${labelW}" y1="0" y2="${h}" stroke="#1b1b1b"/>${bars}</svg>` +
    table(opts.id, ['Code', opts.valueName], opts.items.map((i) => [i.label, i.value])) + '</figure>';
}

/** The style rules the charts use (added to the dashboard's one style sheet by the Overview page). */
export const CHART_STYLE = '.chart{margin:1.5rem 0;max-width:48rem}.chart svg{width:100%;height:auto;display:block}' +
  '.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0;padding:0;font-size:.9rem}' +
  '.legend .swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:2px;margin-right:.35rem;vertical-align:-2px;border:1px solid #1b1b1b}' +
  'details summary{cursor:pointer;color:inherit;text-decoration:underline}.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.75rem;margin:1rem 0}' +
  '.tile{border:1px solid #c8c8c8;border-radius:8px;padding:.6rem .8rem}.tile b{display:block;font-size:1.5rem}' +
  '.ranges{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;padding:0;margin:.5rem 0}.ranges a[aria-current]{font-weight:700;color:#1b1b1b}';
