import type { Brand } from '../../ports/store';
import type { Branding } from '../../ports/branding';
import type { connectionsPage, webhooksPage } from '../../app/dashboard/settings';
import { PLATFORM_NAMES } from '../../domain/platforms';
import { WEBHOOK_EVENTS, DEFAULT_WEBHOOK_EVENTS } from '../../domain/webhooks';
import { escapeHtml as e } from '../reply';
import { networkName } from '../network-icons';
import { csrfField, notice } from './layout';

/** The Brands, Connections, Webhooks and Branding pages. Every form posts to its page with an `action`. */

type Flash = { kind: 'ok' | 'error'; text: string } | undefined;
const flashHtml = (f: Flash) => (f ? notice(f.kind, f.text) : '');
const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${e(value)}">`;
const actionForm = (page: string, csrf: string, fields: string, button: string, cls = '') =>
  `<form method="post" action="/dashboard/${page}" class="inline">${csrfField(csrf)}${fields}<button type="submit"${cls ? ` class="${cls}"` : ''}>${button}</button></form>`;

export function brandsBody(brands: Brand[], csrf: string, flash: Flash): string {
  const cards = brands.map((b) => `<form method="post" action="/dashboard/brands" class="card" id="${e(b.id)}">${csrfField(csrf)}${hidden('action', 'update')}${hidden('brand_id', b.id)}` +
    `<fieldset><legend>${e(b.name)} <code>${e(b.id)}</code></legend>` +
    `<label for="${b.id}-name">Name</label><input id="${b.id}-name" name="name" type="text" required maxlength="100" value="${e(b.name)}">` +
    `<label for="${b.id}-tz">Time zone (IANA, e.g. Europe/Berlin)</label><input id="${b.id}-tz" name="timezone" type="text" required value="${e(b.timezone)}">` +
    `<label for="${b.id}-slots">Posting slots (HH:MM, separated by commas)</label><input id="${b.id}-slots" name="slots" type="text" required value="${e(b.slots.join(', '))}">` +
    '<div><button type="submit">Save</button></div></fieldset></form>').join('');
  return `<h1>Brands</h1>${flashHtml(flash)}<form method="post" action="/dashboard/brands" class="card">${csrfField(csrf)}${hidden('action', 'create')}` +
    '<label for="new-brand">New brand name</label><input id="new-brand" name="name" type="text" required maxlength="100"><div><button type="submit">Add brand</button></div></form>' + cards;
}

type Connections = Awaited<ReturnType<typeof connectionsPage>>;
type ConnectionRow = Connections['connections'][number];
/** The State cell: the connection's health in words, with the date that matters. */
export function healthCell(c: ConnectionRow): string {
  const h = c.health;
  if (c.status === 'reauth_required' || h?.state === 'reauth_required') return '<b>Needs a new sign-in</b>';
  if (h?.state === 'expiring') return `<b>Sign-in ends <time datetime="${e(h.expires_at ?? '')}">${e((h.expires_at ?? '').slice(0, 10))}</time></b>: make a reconnect link`;
  if (h?.state === 'network_down') return `<b>Network unreachable</b> since <time datetime="${e(h.since ?? '')}">${e((h.since ?? '').slice(0, 16).replace('T', ' '))} UTC</time>`;
  return 'Connected';
}
export function connectionsBody(data: Connections, csrf: string, flash: Flash, extra?: string): string {
  const brands = data.brands.map((b) => {
    const rows = b.connections.map((c) => `<tr><td>${networkName(c.platform)}</td><td>${e(c.handle)}</td><td>${healthCell(c)}</td><td>` +
      actionForm('connections', csrf, hidden('action', 'check') + hidden('brand_id', b.id) + hidden('platform', c.platform), `Check ${e(c.platform)}`, 'secondary') + ' ' +
      actionForm('connections', csrf, hidden('action', 'link') + hidden('brand_id', b.id) + hidden('platform', c.platform), `Reconnect link for ${e(c.platform)}`, 'secondary') + ' ' +
      actionForm('connections', csrf, hidden('action', 'disconnect') + hidden('connection_id', c.id), `Disconnect ${e(c.platform)}`, 'danger') + '</td></tr>').join('');
    const selectId = `link-${b.id}`;
    return `<section class="card" aria-labelledby="h-${e(b.id)}"><h2 id="h-${e(b.id)}">${e(b.name)}</h2>` +
      (rows ? `<table><thead><tr><th scope="col">Network</th><th scope="col">Account</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>Nothing connected yet.</p>') +
      `<form method="post" action="/dashboard/connections">${csrfField(csrf)}${hidden('action', 'link')}${hidden('brand_id', b.id)}<label for="${selectId}">Connect link for</label>` +
      `<select id="${selectId}" name="platform"><option value="">Every network</option>${PLATFORM_NAMES.map((p) => `<option value="${p}">${p}</option>`).join('')}</select>` +
      ' <button type="submit">Make a connect link</button></form></section>';
  }).join('');
  return `<h1>Connections</h1>${flashHtml(flash)}${extra ?? ''}<p class="hint">A connect link lets you (or your client) sign in to a network for a brand; it works for one hour.</p>${brands}`;
}

type Webhooks = Awaited<ReturnType<typeof webhooksPage>>;
export function webhooksBody(data: Webhooks, csrf: string, flash: Flash, secret?: string): string {
  const shown = secret ? `<div class="notice ok" role="status"><p>The signing secret, shown only this once:</p><p><code id="webhook-secret">${e(secret)}</code></p></div>` : '';
  const rows = data.webhooks.map((w) => `<article class="card" id="${e(w.id)}"><h2>${e(w.url)}</h2><p>Events: ${e(w.events.join(', '))}</p>` +
    actionForm('webhooks', csrf, hidden('action', 'test') + hidden('webhook_id', w.id), 'Send a test event', 'secondary') + ' ' +
    actionForm('webhooks', csrf, hidden('action', 'rotate') + hidden('webhook_id', w.id), 'Rotate the secret', 'secondary') + ' ' +
    `<a class="button secondary" href="/dashboard/webhooks?log=${e(w.id)}#log">Delivery log</a> ` +
    actionForm('webhooks', csrf, hidden('action', 'delete') + hidden('webhook_id', w.id), 'Delete', 'danger') + '</article>').join('');
  const log = data.log ? `<section id="log" aria-labelledby="log-h"><h2 id="log-h">Delivery log</h2>` + (data.log.deliveries.length
    ? `<table><thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Try</th><th scope="col">Result</th><th scope="col"></th></tr></thead><tbody>` +
      data.log.deliveries.map((d) => `<tr><td>${e(d.created_at.slice(0, 19).replace('T', ' '))}</td><td>${e(d.type)}</td><td>${d.attempt}</td>` +
        `<td>${d.ok ? 'delivered' : `failed${d.status_code ? ` (${d.status_code})` : ''}${d.error ? `: ${e(d.error)}` : ''}`}</td><td>` +
        actionForm('webhooks', csrf, hidden('action', 'redeliver') + hidden('webhook_id', data.log!.webhook_id) + hidden('delivery_id', d.delivery_id), 'Redeliver', 'secondary') + '</td></tr>').join('') + '</tbody></table>'
    : '<p>No deliveries yet.</p>') + '</section>' : '';
  const events = WEBHOOK_EVENTS.map((ev) => `<label class="inline"><input type="checkbox" name="events" value="${ev}"${DEFAULT_WEBHOOK_EVENTS.includes(ev) ? ' checked' : ''}> ${ev}</label> `).join('');
  return `<h1>Webhooks</h1>${flashHtml(flash)}${shown}<p class="hint">Your plan includes ${data.limit} endpoints.</p>` +
    `<form method="post" action="/dashboard/webhooks" class="card">${csrfField(csrf)}${hidden('action', 'create')}<label for="wh-url">Endpoint URL (https)</label>` +
    `<input id="wh-url" name="url" type="url" required><fieldset><legend>Events</legend>${events}</fieldset><div><button type="submit">Add endpoint</button></div></form>${rows}${log}`;
}

export function brandingBody(opts: { brands: Brand[]; branding: Branding[]; csrf: string; level: string; flash: Flash }): string {
  if (opts.level === 'none') {
    return `<h1>Branding</h1>${flashHtml(opts.flash)}<p>Pages your clients see (connect links, upload links, approvals) show the service's own mark on your plan. ` +
      'Pro shows your own name and logo; Agency and Scale only your own mark. <a href="/dashboard/plan?plan=pro">See plans</a>.</p>';
  }
  const form = (scope: string, label: string) => {
    const b = opts.branding.find((x) => x.scope === scope);
    const id = (f: string) => `${scope}-${f}`;
    return `<form method="post" action="/dashboard/branding" class="card">${csrfField(opts.csrf)}${hidden('scope', scope)}<fieldset><legend>${e(label)}</legend>` +
      `<label for="${id('name')}">Display name</label><input id="${id('name')}" name="display_name" type="text" required maxlength="80" value="${e(b?.display_name ?? '')}">` +
      `<label for="${id('logo')}">Logo URL (an https link, or an image you uploaded: paste its media_url and the logo is kept as branding, not deleted with the upload after 30 days)</label><input id="${id('logo')}" name="logo_url" type="url" value="${e(b?.logo_url ?? '')}">` +
      `<label for="${id('accent')}">Accent colour (#rrggbb)</label><input id="${id('accent')}" name="accent" type="text" pattern="#[0-9a-fA-F]{6}" value="${e(b?.accent ?? '')}">` +
      `<label for="${id('support')}">Support email</label><input id="${id('support')}" name="support_email" type="email" value="${e(b?.support_email ?? '')}">` +
      '<div><button type="submit">Save branding</button></div></fieldset></form>';
  };
  return `<h1>Branding</h1>${flashHtml(opts.flash)}<p>Shown on the pages and emails your clients see: connect links, upload links and client approvals ` +
    `(${opts.level === 'own name and logo' ? 'your name and logo, with a small “powered by” line' : 'your mark only'}). A brand's own branding overrides the account's.</p>` +
    form('account', 'Account (every brand)') + opts.brands.map((br) => form(br.id, `Brand ${br.name}`)).join('');
}
