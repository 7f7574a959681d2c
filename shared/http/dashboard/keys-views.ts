import type { keysPage } from '../../app/dashboard/keys';
import { PLATFORM_NAMES } from '../../domain/platforms';
import { escapeHtml as e } from '../reply';
import { csrfField, notice } from './layout';

/** The API keys page: create (secret shown once), revoke, and each key's guardrails. */

type Data = Awaited<ReturnType<typeof keysPage>>;

function guardrailsForm(k: Data['keys'][number], data: Data, csrf: string): string {
  const g = k.guardrails;
  const id = (s: string) => `${k.id}-${s}`;
  const box = (name: string, value: string, checked: boolean, label: string) =>
    `<label class="inline"><input type="checkbox" name="${name}" value="${e(value)}"${checked ? ' checked' : ''}> ${e(label)}</label> `;
  return `<details${g ? ' open' : ''}><summary>Guardrails of ${e(k.name)}</summary>` +
    `<form method="post" action="/dashboard/keys">${csrfField(csrf)}<input type="hidden" name="action" value="guardrails"><input type="hidden" name="key_id" value="${e(k.id)}">` +
    `<label for="${id('cap')}">Monthly post cap (networks a month; empty: no cap)</label><input id="${id('cap')}" name="monthly_post_cap" type="number" min="0" value="${g?.monthly_post_cap ?? ''}">` +
    `<fieldset><legend>Networks</legend>${box('limit_platforms', 'on', !!g?.allowed_platforms, 'Only these networks:')}<div>` +
    PLATFORM_NAMES.map((p) => box('allowed_platforms', p, !!g?.allowed_platforms?.includes(p), p)).join('') + '</div></fieldset>' +
    `<fieldset><legend>Brands</legend>${box('limit_brands', 'on', !!g?.allowed_brands, 'Only these brands:')}<div>` +
    data.brands.map((b) => box('allowed_brands', b.id, !!g?.allowed_brands?.includes(b.id), b.name)).join('') + '</div></fieldset>' +
    `${box('always_require_approval', 'on', !!g?.always_require_approval, 'Always require approval for posts from this key')}` +
    `<div><button type="submit">Save guardrails</button></div></form></details>`;
}

export function keysBody(data: Data, csrf: string, flash?: { kind: 'ok' | 'error'; text: string }, secret?: { api_key: string; name: string }): string {
  const shown = secret ? `<div class="notice ok" role="status"><p>New key <b>${e(secret.name)}</b>. Copy it now: it is shown only this once.</p><p><code id="new-key">${e(secret.api_key)}</code></p></div>` : '';
  const rows = data.keys.map((k) => `<article class="card" id="${e(k.id)}"><h2>${e(k.name)} <code>${e(k.prefix)}…</code></h2>` +
    `<p>Created ${e(k.created_at.slice(0, 10))}${k.expires_at ? ` · expires ${e(k.expires_at.slice(0, 10))}` : ''}${k.revoked_at ? ` · <b>revoked</b> ${e(k.revoked_at.slice(0, 10))}` : ''}</p>` +
    (k.revoked_at ? '' : (data.canGuard ? guardrailsForm(k, data, csrf) : '<p class="hint">Guardrails are part of every paid plan. <a href="/dashboard/plan?plan=starter">See plans</a>.</p>') +
      `<form method="post" action="/dashboard/keys">${csrfField(csrf)}<input type="hidden" name="action" value="revoke"><input type="hidden" name="key_id" value="${e(k.id)}"><button type="submit" class="danger">Revoke ${e(k.name)}</button></form>`) +
    '</article>').join('');
  return `<h1>API keys</h1>${flash ? notice(flash.kind, flash.text) : ''}${shown}` +
    `<form method="post" action="/dashboard/keys" class="card">${csrfField(csrf)}<input type="hidden" name="action" value="create"><h2>Create a key</h2>` +
    '<label for="key-name">Name</label><input id="key-name" name="name" type="text" maxlength="100">' +
    '<label for="key-days">Expires after (days, optional)</label><input id="key-days" name="expires_in_days" type="number" min="1" max="3650">' +
    `<div><button type="submit">Create key</button></div></form>${rows}`;
}
