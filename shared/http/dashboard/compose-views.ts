import type { ComposeFormValues, ComposeOutcome, ComposePage } from '../../app/dashboard/compose';
import type { PlatformName } from '../../domain/platforms';
import { measure, textLimit, UNIT_WORDS } from '../../domain/text-length';
import { networkLimits } from '../../networks/descriptor-limits';
import { escapeHtml as e } from '../reply';
import { displayName } from '../pages/connect-page';
import { networkName } from '../network-icons';
import { csrfField, notice } from './layout';

/**
 * The Compose page: one post, the brand's connected networks (with icons), media from the uploads or an upload link,
 * a preview per network with its count in the network's own units (counted by the server on every answer, live by
 * /dashboard/script.js when scripts run), the check's verdicts, and the buttons: Check, Publish now, Schedule, Send
 * for approval. Every button posts the whole form, so nothing typed is lost and everything works without a script.
 */

type Values = Partial<ComposeFormValues>;

function brandPicker(page: ComposePage, brandId: string | undefined): string {
  if (page.brands.length < 2) return '';
  const options = page.brands.map((b) => `<option value="${e(b.brand.id)}"${b.brand.id === brandId ? ' selected' : ''}>${e(b.brand.name)} (${b.networks.length} connected)</option>`).join('');
  return `<form method="get" action="/dashboard/compose" class="card"><label for="compose-brand">Brand</label><select id="compose-brand" name="brand">${options}</select>` +
    ' <button type="submit" class="secondary">Show its networks</button><p class="hint">Choosing another brand starts a new post.</p></form>';
}

function networksField(page: ComposePage, v: Values): string {
  const b = page.chosen!;
  if (!b.networks.length) {
    return `<fieldset><legend>Networks of ${e(b.brand.name)}</legend><p>Nothing is connected to ${e(b.brand.name)} yet. <a href="/dashboard/connections">Connect a network</a>.</p></fieldset>`;
  }
  const ticked = new Set(v.platforms ?? []);
  const boxes = b.networks.map((n) => `<label class="check" for="net-${n.platform}"><input type="checkbox" id="net-${n.platform}" name="platforms" value="${n.platform}"${ticked.has(n.platform) ? ' checked' : ''}>` +
    `${networkName(n.platform, displayName(n.platform))} <span class="hint">${e(n.handle)}${n.status === 'reauth_required' ? ' · needs a new sign-in' : ''}</span></label>`).join('');
  return `<fieldset><legend>Networks of ${e(b.brand.name)} (connected)</legend><div class="checks">${boxes}</div></fieldset>`;
}

function mediaField(page: ComposePage, v: Values): string {
  const picked = new Set(v.media ?? []);
  const library = page.library.length
    ? '<p class="hint">Your newest uploads (kept 30 days):</p><div class="checks">' + page.library.map((m, i) =>
      `<label class="check" for="media-${i}"><input type="checkbox" id="media-${i}" name="media" value="${e(m.media_url)}"${picked.has(m.media_url) ? ' checked' : ''}>` +
      `${e(m.kind)} · ${e(m.content_type)} · ${Math.max(1, Math.round(m.bytes / 1024))} KB${m.uploaded_at ? ` · ${e(m.uploaded_at.slice(0, 10))}` : ''}</label>`).join('') + '</div>'
    : '<p class="hint">No uploads yet: use "Get an upload link" below, or paste a link.</p>';
  const link = v.upload_token ? `<input type="hidden" name="upload_token" value="${e(v.upload_token)}">` : '';
  return `<fieldset><legend>Media</legend>${library}` +
    `<label for="compose-media-url">Or a link to an image or video (https)</label><input id="compose-media-url" name="media_url" type="url" value="${e(v.media_url ?? '')}">${link}</fieldset>`;
}

/** The media kinds the server's limits depend on (Telegram's caption, TikTok photos): known for picked uploads only. */
function shapeOf(page: ComposePage, v: Values) {
  const kinds = page.library.filter((m) => v.media?.includes(m.media_url)).map((m) => m.kind);
  return { media: v.media_url || v.upload_token ? [...kinds, 'image' as const] : kinds };
}

/** Each network's text rule, from the registry (shared/networks/network-list.ts). */
const NETWORK_LIMITS = networkLimits();

function previews(page: ComposePage, v: Values): string {
  const b = page.chosen!;
  if (!b.networks.length) return '';
  const ticked = new Set(v.platforms ?? []);
  const text = v.text ?? '';
  const shape = shapeOf(page, v);
  const cards = [...new Set(b.networks.map((n) => n.platform))].map((p: PlatformName) => {
    const rule = NETWORK_LIMITS.textRule(p);
    const limit = textLimit(rule, shape);
    const n = measure(rule.unit, text);
    const over = n > limit;
    const title = rule.title?.limit !== undefined && v.title
      ? `<p class="count${measure(rule.title.unit, v.title) > rule.title.limit ? ' over' : ''}">Title: <output data-count-field="title" data-count-unit="${rule.title.unit}" data-count-limit="${rule.title.limit}">${measure(rule.title.unit, v.title)}</output> of ${rule.title.limit} ${e(UNIT_WORDS[rule.title.unit])}</p>`
      : '';
    return `<article class="preview card" data-preview="${p}"${ticked.size && !ticked.has(p) ? ' hidden' : ''} aria-labelledby="pv-${p}">` +
      `<h3 id="pv-${p}">${networkName(p, displayName(p))}</h3><p class="preview-text" data-preview-text>${e(text)}</p>` +
      `<p class="count${over ? ' over' : ''}"><output data-count-field="text" data-count-unit="${rule.unit}" data-count-limit="${limit}" aria-describedby="pv-${p}">${n}</output> of ${limit} ${e(UNIT_WORDS[rule.unit])}` +
      ` <span class="over-flag"${over ? '' : ' hidden'}>— too long for ${e(displayName(p))}</span></p>${title}</article>`;
  }).join('');
  return `<section aria-labelledby="previews-h"><h2 id="previews-h">Previews</h2><p class="hint">Each count is in the network's own units; "Check" asks the server for the full verdict.</p><div class="cards">${cards}</div></section>`;
}

function whenField(page: ComposePage, v: Values): string {
  const tz = page.chosen!.brand.timezone;
  return `<fieldset><legend>When (for Schedule)</legend><label for="compose-run-at">Date and time in ${e(tz)}</label>` +
    `<input id="compose-run-at" name="run_at" type="datetime-local" value="${e(v.run_at ?? '')}">` +
    `<div><label class="check" for="compose-next-slot"><input type="checkbox" id="compose-next-slot" name="next_slot" value="on"${v.next_slot ? ' checked' : ''}> The brand's next free posting slot instead</label></div></fieldset>`;
}

function outcomeHtml(o: ComposeOutcome | undefined): string {
  if (!o) return '';
  switch (o.kind) {
    case 'upload_link':
      return `<div class="notice ok" role="status"><p>Upload your file on <a href="${e(o.url)}" target="_blank" rel="noopener">the upload page (opens in a new tab)</a>; the link works once, until ${e(o.expires_at.slice(11, 16))} UTC.</p>` +
        '<p>Then press Check or Publish now here: the file is attached.</p></div>';
    case 'scheduled':
      return notice('ok', `Scheduled for ${o.run_at.replace('T', ' ')} (schedule ${o.schedule_id}).`);
    case 'held':
      return `<div class="notice ok" role="status">Sent for approval: nothing is published until it is approved. <a href="/dashboard/approvals#${e(o.approval_id)}">See it on Approvals</a>.</div>`;
    case 'published': {
      const rows = o.results.map((r) => `<tr><td>${networkName(r.platform)}</td><td>${e(r.ok ? r.status ?? 'published' : 'failed')}</td><td>${r.url ? `<a href="${e(r.url)}">${e(r.url)}</a>` : r.ok ? '' : `${e(r.code ?? '')}: ${e(r.error ?? '')}`}</td></tr>`).join('');
      const all = o.results.every((r) => r.ok);
      return `<section aria-labelledby="result-h" class="notice ${all ? 'ok' : 'error'}" role="status"><h2 id="result-h">${all ? 'Published' : 'Published with failures'}: one result per network</h2>` +
        `<table><thead><tr><th scope="col">Network</th><th scope="col">Result</th><th scope="col">Link or reason</th></tr></thead><tbody>${rows}</tbody></table>` +
        `<p><a href="/dashboard/posts/${e(o.post_id)}">Open the post</a></p></section>`;
    }
    case 'checked': {
      const a = o.answer;
      const rows = a.results.map((r) => `<tr><td>${networkName(r.platform)}</td><td>${r.ok ? '<b>ready</b>' : `<b>${e(r.code ?? 'refused')}</b>`}</td>` +
        `<td>${r.ok ? (r.status === 'ok' ? 'Passes every check' : e(r.status)) : `${e(r.error ?? '')}${r.fix ? ` <span class="hint">${e(r.fix)}</span>` : ''}`}</td></tr>`).join('');
      return `<section aria-labelledby="verdict-h" class="notice ${a.ok ? 'ok' : 'error'}" role="status"><h2 id="verdict-h">${a.ok ? 'Ready to publish' : 'Not ready'}: the check of each network</h2>` +
        (a.pending_approval ? '<p>An approval rule would hold this post until it is approved.</p>' : '') +
        `<table><thead><tr><th scope="col">Network</th><th scope="col">Verdict</th><th scope="col">Details</th></tr></thead><tbody>${rows}</tbody></table></section>`;
    }
  }
}

export function composeBody(o: { page: ComposePage; csrf: string; values?: Values; outcome?: ComposeOutcome; error?: { message: string; code: string } }): string {
  const { page } = o;
  const v = o.values ?? {};
  if (!page.chosen) return '<h1>Compose</h1><p>Add a brand first on <a href="/dashboard/brands">Brands</a>, then connect a network to it.</p>';
  const b = page.chosen;
  const approval = page.canApprove ? ' <button type="submit" name="action" value="approval" class="secondary">Send for approval</button>' : '';
  return `<h1>Compose</h1>${o.error ? notice('error', `${o.error.message} (${o.error.code})`) : ''}${outcomeHtml(o.outcome)}${brandPicker(page, b.brand.id)}` +
    `<form method="post" action="/dashboard/compose" id="compose">${csrfField(o.csrf)}<input type="hidden" name="brand_id" value="${e(b.brand.id)}">` +
    networksField(page, v) +
    `<label for="compose-text">Text</label><textarea id="compose-text" name="text" rows="6">${e(v.text ?? '')}</textarea>` +
    `<label for="compose-title">Title (articles, videos, Reddit, Pinterest; optional)</label><input id="compose-title" name="title" type="text" maxlength="500" value="${e(v.title ?? '')}">` +
    mediaField(page, v) + previews(page, v) + whenField(page, v) +
    '<div class="actions"><button type="submit" name="action" value="check" class="secondary">Check</button> <button type="submit" name="action" value="publish">Publish now</button>' +
    ` <button type="submit" name="action" value="schedule" class="secondary">Schedule</button>${approval}</div>` +
    '<h2>Upload a new file</h2><p class="hint">Makes a one-time upload page (1 hour); the next button you press here attaches its file.</p>' +
    '<button type="submit" name="action" value="upload_link" class="secondary">Get an upload link</button></form>' +
    '<script type="module" src="/dashboard/script.js"></script>';
}
