import type { ActivityPost } from '../../app/dashboard/activity';
import type { ActivityQuery } from '../../api/dashboard-schemas';
import type { getPost } from '../../app/publish/queries';
import type { Brand } from '../../ports/store';
import { PLATFORM_NAMES } from '../../domain/platforms';
import { escapeHtml as e } from '../reply';
import { networkName } from '../network-icons';

/** The Posts page (activity log with filters, pages, Export CSV) and one post's results and events. */

const STATUSES = ['published', 'failed', 'unknown', 'held', 'scheduled', 'processing', 'deleted'];

function select(name: string, label: string, options: Array<[string, string]>, current?: string) {
  return `<div><label for="f-${name}">${e(label)}</label><select id="f-${name}" name="${name}"><option value="">Any</option>` +
    options.map(([v, l]) => `<option value="${e(v)}"${v === current ? ' selected' : ''}>${e(l)}</option>`).join('') + '</select></div>';
}

export function filterQuery(q: ActivityQuery, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams();
  for (const k of ['brand', 'platform', 'status', 'source', 'from', 'to'] as const) if (q[k]) p.set(k, q[k]!);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function postsBody(opts: { q: ActivityQuery; brands: Brand[]; posts: ActivityPost[]; next: string | null }): string {
  const { q } = opts;
  const form = `<form method="get" action="/dashboard/posts" class="cards" aria-label="Filters">` +
    select('brand', 'Brand', opts.brands.map((b) => [b.id, b.name]), q.brand) +
    select('platform', 'Network', PLATFORM_NAMES.map((p) => [p, p]), q.platform) +
    select('status', 'Status', STATUSES.map((s) => [s, s]), q.status) +
    select('source', 'Source', [['api', 'API'], ['schedule', 'Schedule']], q.source) +
    `<div><label for="f-from">From (UTC date)</label><input id="f-from" name="from" type="date" value="${e(q.from ?? '')}"></div>` +
    `<div><label for="f-to">To (UTC date)</label><input id="f-to" name="to" type="date" value="${e(q.to ?? '')}"></div>` +
    '<div><button type="submit">Filter</button></div></form>';
  const rows = opts.posts.map((p) => `<tr><td><a href="/dashboard/posts/${e(p.id)}">${e(p.created_at.slice(0, 16).replace('T', ' '))}</a></td>` +
    `<td>${e(p.brand)}</td><td>${e(p.source)}</td><td>${e(p.text.slice(0, 120))}</td>` +
    `<td><ul>${p.networks.map((n) => `<li>${networkName(n.platform)}: <b>${e(n.status)}</b>${n.code ? ` (${e(n.code)})` : ''}</li>`).join('')}</ul></td></tr>`).join('');
  const table = opts.posts.length
    ? `<table id="posts"><caption class="hint">Newest first; times in UTC</caption><thead><tr><th scope="col">When</th><th scope="col">Brand</th><th scope="col">Source</th><th scope="col">Text</th><th scope="col">Networks</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>No posts match these filters.</p>';
  const next = opts.next ? `<p><a href="/dashboard/posts${e(filterQuery(q, { before: opts.next }))}">Older posts</a></p>` : '';
  return `<h1>Posts</h1>${form}<p><a class="button secondary" href="/dashboard/posts/export${e(filterQuery(q))}" download>Export CSV</a> ` +
    '<span class="hint">All posts matching the filters, one line per network.</span></p>' + table + next;
}

export function postDetailBody(p: Awaited<ReturnType<typeof getPost>>): string {
  const results = p.results.map((x) => {
    const r = x as { platform: string; status: string; ok: boolean; code?: string; error?: string; url?: string };
    return `<tr><th scope="row">${networkName(r.platform)}</th><td>${e(String(r.status))}</td><td>${r.ok ? 'yes' : 'no'}</td>` +
    `<td>${e(r.code ?? '')}${r.error ? `: ${e(r.error)}` : ''}</td><td>${r.url ? `<a href="${e(r.url)}">${e(r.url)}</a>` : ''}</td></tr>`;
  }).join('');
  const events = p.events.map((ev) => `<li><code>${e(ev.type)}</code> ${e(ev.created_at.slice(0, 19).replace('T', ' '))}${typeof ev.data.platform === 'string' ? ` · ${e(ev.data.platform)}` : ''}</li>`).join('');
  return `<p><a href="/dashboard/posts">← All posts</a></p><h1>Post ${e(p.id)}</h1><p>Created ${e(p.created_at.slice(0, 19).replace('T', ' '))} UTC · source ${e(p.source)}` +
    `${p.idempotency_key ? ` · idempotency key <code>${e(p.idempotency_key)}</code>` : ''}</p><blockquote class="card">${e(p.text ?? '')}</blockquote>` +
    `<h2>Results</h2><table><thead><tr><th scope="col">Network</th><th scope="col">Status</th><th scope="col">OK</th><th scope="col">Code</th><th scope="col">Link</th></tr></thead><tbody>${results}</tbody></table>` +
    `<h2>Events</h2>${events ? `<ul>${events}</ul>` : '<p>No events yet.</p>'}`;
}
