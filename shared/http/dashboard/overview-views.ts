import type { usage as usageOf } from '../../app/usage';
import type { Plan } from '../../domain/plans';
import { PLANS, PLAN_NAMES } from '../../domain/plans';
import { escapeHtml as e } from '../reply';
import type { EngagementSeries, OverviewCharts } from '../../app/dashboard/overview-charts';
import { CHART_RANGES } from '../../app/dashboard/overview-charts';
import { horizontalBarChart, lineChart, OUTCOME_COLOURS, SERIES_COLOURS, stackedBarChart, type Series } from './charts-svg';

/** The Overview and Plan pages (issue 16): usage bars (warning from 80 %) and the plan table. */

type Usage = Awaited<ReturnType<typeof usageOf>>;
type Line = { limit: number | null; used: number; remaining: number | null; resets_at: string | null };

const LIMIT_LABELS: Array<[keyof Usage, string]> = [
  ['posts_per_month', 'Posts this month'], ['ai_drafts_per_day', 'AI drafts today'], ['brands', 'Brands'],
  ['scheduled_at_a_time', 'Scheduled posts waiting'], ['webhooks', 'Webhook endpoints'], ['x_credits', 'X credits this month'],
];

const fmt = (n: number) => n.toLocaleString('en-US');

/** One limit as a labelled meter; from 80 % used it turns amber and says so in words. */
export function usageBar(id: string, label: string, line: Line): string {
  if (line.limit === null) return `<p><b>${e(label)}</b>: ${fmt(line.used)} (no limit)</p>`;
  const pct = line.limit === 0 ? (line.used > 0 ? 100 : 0) : Math.min(100, Math.round((line.used / line.limit) * 100));
  const warn = line.limit === 0 ? false : pct >= 80;
  const resets = line.resets_at ? `, resets ${line.resets_at.slice(0, 10)}` : '';
  return `<div class="usage" id="usage-${e(id)}" data-percent="${pct}"${warn ? ' data-warn="true"' : ''}><p id="${e(id)}-label"><b>${e(label)}</b>: ${fmt(line.used)} of ${fmt(line.limit)} (${pct} %${resets})` +
    (warn ? ` <span class="warn-text">${pct >= 100 ? 'Limit reached' : 'Nearly used up'}</span>` : '') + '</p>' +
    `<div class="bar${warn ? ' warn' : ''}" role="meter" aria-labelledby="${e(id)}-label" aria-valuemin="0" aria-valuemax="${line.limit}" aria-valuenow="${Math.min(line.used, line.limit)}"><span style="width:${pct}%"></span></div></div>`;
}

export function usageSection(u: Usage): string {
  return LIMIT_LABELS.map(([key, label]) => usageBar(String(key), label, u[key] as Line)).join('') +
    `<p><b>Networks per post</b>: ${u.networks_per_post.limit ?? 'all'} · <b>API requests a minute per key</b>: ${u.api_requests_per_minute_per_key.limit === null ? 'no limit' : fmt(u.api_requests_per_minute_per_key.limit)}</p>`;
}

/** The Overview's charts: totals, results by day and network, outcomes by day, engagement, failures by code. */
export function chartsSection(c: OverviewCharts, range: number, engagement?: EngagementSeries): string {
  const ranges = CHART_RANGES.map((r) => `<li><a href="/dashboard?days=${r}"${r === range ? ' aria-current="true"' : ''}>Last ${r} days</a></li>`).join('');
  const rate = c.totals.published + c.totals.failed > 0 ? `${Math.round((c.totals.published / (c.totals.published + c.totals.failed)) * 100)} %` : '–';
  const tiles = [['Posts', fmt(c.totals.posts)], ['Published', fmt(c.totals.published)], ['Failed', fmt(c.totals.failed)], ['Waiting', fmt(c.totals.pending)], ['Success rate', rate]]
    .map(([k, v]) => `<div class="tile">${e(k)}<b>${e(v)}</b></div>`).join('');
  const days = c.days.map((d) => d.day);
  const span = `${c.from} to ${c.to} (UTC)`;
  const byNetwork: Series[] = c.networks.map((p, i) => ({ name: p, colour: SERIES_COLOURS[i % SERIES_COLOURS.length], values: c.days.map((d) => { const n = d.networks[p]; return n ? n.published + n.failed + n.pending : 0; }) }));
  const outcomes: Series[] = (['published', 'failed', 'pending'] as const).map((k) => ({
    name: k === 'pending' ? 'waiting' : k, colour: OUTCOME_COLOURS[k], values: c.days.map((d) => Object.values(d.networks).reduce((sum, n) => sum + n[k], 0)),
  }));
  const busiest = c.days.reduce((best, d) => (d.posts > best.posts ? d : best), c.days[0]);
  const charts = c.totals.posts === 0
    ? `<p>No posts in these ${range} days yet: publish one with <code>POST /api/post</code> and it shows here.</p>`
    : stackedBarChart({
      id: 'chart-results', title: 'Results by day and network', categories: days, series: byNetwork,
      desc: `One bar per day from ${span}, split by network: ${fmt(c.totals.posts)} posts made ${fmt(c.totals.published + c.totals.failed + c.totals.pending)} results on ${c.networks.length} network${c.networks.length === 1 ? '' : 's'}; the busiest day was ${busiest.day} with ${fmt(busiest.posts)} posts.`,
      extraColumns: [{ name: 'Posts', values: c.days.map((d) => d.posts) }],
    }) + stackedBarChart({
      id: 'chart-outcomes', title: 'Outcomes by day', categories: days, series: outcomes,
      desc: `Per day from ${span}: ${fmt(c.totals.published)} results published, ${fmt(c.totals.failed)} failed, ${fmt(c.totals.pending)} still waiting (success rate ${rate}).`,
    });
  const engagementChart = !engagement
    ? ''
    : engagement.series.length === 0
      ? '<p id="chart-engagement"><b>Engagement over time</b>: no likes, comments, shares or saves collected for these days yet (figures are fetched from each network after a post is published).</p>'
      : lineChart({
        id: 'chart-engagement', title: 'Engagement over time', categories: engagement.days,
        series: engagement.series.map((s, i) => ({ ...s, colour: SERIES_COLOURS[i % SERIES_COLOURS.length] })),
        desc: `Per day from ${span}: ${engagement.series.map((s) => `${s.name} ${fmt(s.values.reduce((a, b) => a + b, 0))}`).join(', ')} in total.`,
      });
  const failures = c.failures.length === 0
    ? '<p id="chart-failures">No failed results in these days.</p>'
    : horizontalBarChart({
      id: 'chart-failures', title: 'Failures by code', items: c.failures.slice(0, 12).map((f) => ({ label: f.code, value: f.count })), colour: OUTCOME_COLOURS.failed, valueName: 'Failed results',
      desc: `${fmt(c.totals.failed)} failed results from ${span}; the most frequent code is ${c.failures[0].code} (${fmt(c.failures[0].count)}).`,
    });
  return `<section aria-labelledby="activity-title"><h2 id="activity-title">Activity</h2><nav aria-label="Chart range"><ul class="ranges">${ranges}</ul></nav>` +
    `<div class="tiles">${tiles}</div>${charts}${engagementChart}${failures}</section>`;
}

export function overviewBody(opts: { email: string; plan: Plan; usage: Usage; pendingApprovals?: number; charts?: string }): string {
  const up = opts.plan.name === 'scale' ? '' : ` <a href="/dashboard/plan">See plans and upgrade</a>`;
  return `<h1>Overview</h1><p>Signed in as <b>${e(opts.email)}</b>. Plan: <b>${e(opts.plan.name)}</b>.${up}</p>` +
    (opts.pendingApprovals ? `<p><a href="/dashboard/approvals">${opts.pendingApprovals} post${opts.pendingApprovals === 1 ? '' : 's'} waiting for approval</a></p>` : '') +
    (opts.charts ?? '') + `<h2>Usage against your plan</h2>${usageSection(opts.usage)}`;
}

const cell = (v: string | number | boolean | null) => (v === null ? 'all' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : typeof v === 'number' ? fmt(v) : e(v));

/** The plan table (every plan, the current one marked, the `?plan=` hint highlighted) and the account's usage. */
export function planBody(opts: { current: Plan; hint?: string; usage: Usage; billing?: string }): string {
  const hint = PLAN_NAMES.find((p) => p === opts.hint);
  const rows: Array<[string, (p: Plan) => string | number | boolean | null]> = [
    ['Price a month (USD)', (p) => p.price_usd_month], ['Price a year (USD)', (p) => p.price_usd_year], ['Brands', (p) => p.brands],
    ['Posts a month', (p) => (p.posts_unlimited ? `unlimited (fair use ${fmt(p.posts_per_month)})` : p.posts_per_month)],
    ['Networks per post', (p) => p.networks_per_post], ['Webhook endpoints', (p) => p.webhooks], ['AI drafts a day', (p) => p.ai_drafts_per_day],
    ['Scheduled at a time', (p) => p.scheduled_at_a_time], ['API requests a minute per key', (p) => p.api_requests_per_minute_per_key],
    ['X credits a month', (p) => p.x_credits_per_month], ['Approvals and guardrails', (p) => p.approvals],
    ['Client approver link', (p) => p.client_approver_link], ['White label', (p) => p.white_label],
  ];
  const head = PLAN_NAMES.map((n) => `<th scope="col"${n === opts.current.name ? ' aria-current="true"' : ''}>${e(n)}${n === opts.current.name ? ' (yours)' : n === hint ? ' (suggested)' : ''}</th>`).join('');
  const body = rows.map(([label, get]) => `<tr><th scope="row">${e(label)}</th>${PLAN_NAMES.map((n) => `<td>${cell(get(PLANS[n]))}</td>`).join('')}</tr>`).join('');
  return `<h1>Plan</h1><p>You are on the <b>${e(opts.current.name)}</b> plan.` +
    (hint && hint !== opts.current.name ? ` The <b>${e(hint)}</b> plan lifts the limit you reached.` : '') + '</p>' +
    `<table id="plans"><caption class="hint">Plans and their limits; yearly billing is 20 % cheaper.</caption><thead><tr><td></td>${head}</tr></thead><tbody>${body}</tbody></table>` +
    `<section id="billing" aria-labelledby="billing-title" data-plan-hint="${e(hint ?? '')}"><h2 id="billing-title">Billing</h2>` +
    (opts.billing ?? '<p class="hint">Changing plans is handled by the billing provider.</p>') + '</section>' +
    `<h2>What you use</h2>${usageSection(opts.usage)}`;
}
