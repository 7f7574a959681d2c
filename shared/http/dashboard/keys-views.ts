import type { keysPage } from '../../app/dashboard/keys';
import { KEY_SCOPES } from '../../domain/api-key';
import { escapeHtml as e } from '../reply';
import { csrfField, notice } from './layout';
import { guardrailsForm } from './guardrails-form';

/** The API keys page: create with scopes (secret shown once, with a Copy button), revoke, and each key's guardrails. */

const SCOPE_WORDS: Record<(typeof KEY_SCOPES)[number], string> = {
  publish: 'publish: post, schedule, upload media', read: 'read: posts, schedules, usage (GET routes)', manage: 'manage: keys, webhooks, brands, connections',
};

type Data = Awaited<ReturnType<typeof keysPage>>;

export function keysBody(data: Data, csrf: string, flash?: { kind: 'ok' | 'error'; text: string }, secret?: { api_key: string; name: string }): string {
  const shown = secret ? `<div class="notice ok" role="status"><p>New key <b>${e(secret.name)}</b>. Copy it now: it is shown only this once.</p><p><span class="secret" data-copy="Copy the new key"><code id="new-key">${e(secret.api_key)}</code></span></p></div><script type="module" src="/dashboard/script.js"></script>` : '';
  const rows = data.keys.map((k) => `<article class="card" id="${e(k.id)}"><h2>${e(k.name)} <code>${e(k.prefix)}…</code></h2>` +
    `<p>Created ${e(k.created_at.slice(0, 10))}${k.expires_at ? ` · expires ${e(k.expires_at.slice(0, 10))}` : ''}${k.revoked_at ? ` · <b>revoked</b> ${e(k.revoked_at.slice(0, 10))}` : ''} · scopes: ${e(k.scopes.join(', '))}</p>` +
    (k.revoked_at ? '' : (data.canGuard ? guardrailsForm({ name: k.name, action: '/dashboard/keys', idPrefix: k.id, guardrails: k.guardrails, brands: data.brands, csrf, fields: `<input type="hidden" name="action" value="guardrails"><input type="hidden" name="key_id" value="${e(k.id)}">` }) : '<p class="hint">Guardrails are part of every paid plan. <a href="/dashboard/plan?plan=starter">See plans</a>.</p>') +
      `<form method="post" action="/dashboard/keys">${csrfField(csrf)}<input type="hidden" name="action" value="revoke"><input type="hidden" name="key_id" value="${e(k.id)}"><button type="submit" class="danger">Revoke ${e(k.name)}</button></form>`) +
    '</article>').join('');
  return `<h1>API keys</h1>${flash ? notice(flash.kind, flash.text) : ''}${shown}` +
    `<form method="post" action="/dashboard/keys" class="card">${csrfField(csrf)}<input type="hidden" name="action" value="create"><h2>Create a key</h2>` +
    '<label for="key-name">Name</label><input id="key-name" name="name" type="text" maxlength="100">' +
    '<label for="key-days">Expires after (days, optional)</label><input id="key-days" name="expires_in_days" type="number" min="1" max="3650">' +
    '<fieldset><legend>Scopes (what the key may do)</legend><input type="hidden" name="scopes_offered" value="1"><div class="checks">' +
    KEY_SCOPES.map((sc) => `<label class="check" for="scope-${sc}"><input type="checkbox" id="scope-${sc}" name="scopes" value="${sc}" checked> ${e(SCOPE_WORDS[sc])}</label>`).join('') + '</div></fieldset>' +
    `<div><button type="submit">Create key</button></div></form>${rows}`;
}
