import type { AiApp, OAuthClientRecord } from '../../ports/mcp-oauth';
import type { AuthorizeQuery } from '../../api/mcp-oauth-schemas';
import { escapeHtml as e } from '../reply';
import type { Guardrails } from '../../ports/guardrails';
import type { Brand } from '../../ports/store';
import { csrfField, notice } from './layout';
import { guardrailsForm } from './guardrails-form';

/** What an AI app may and may not do once allowed (the consent page and the AI apps page say the same). */
const MAY = [
  'publish posts now and schedule them (one-off, in bulk and recurring) to the networks connected to your brands',
  'draft posts with AI (counted in your plan’s AI drafts)',
  'create brands, connect links and media upload links',
  'read your brands, connections, posts, schedules, usage and X credits',
];
const MAY_NOT = [
  'approve a post that waits for approval',
  'change its own limits (guardrails) or anyone else’s',
  'see your API keys or the credentials of your networks',
];

const list = (items: string[]) => `<ul>${items.map((i) => `<li>${e(i)}</li>`).join('')}</ul>`;
const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${e(name)}" value="${e(value)}">`);

/** The consent page of the authorization step: which account, which brands, what the app may do. */
export function consentBody(o: { client: OAuthClientRecord; request: AuthorizeQuery & { redirect_uri: string }; email: string; brands: string[]; csrf: string }): string {
  const q = o.request;
  const returnTo = new URL(q.redirect_uri);
  const fields = (['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const)
    .map((k) => hidden(k, q[k])).join('');
  return `<h1>Allow ${e(o.client.client_name)} to use your account?</h1>` +
    `<p>You are signed in as <strong>${e(o.email)}</strong>. ${e(o.client.client_name)} is an AI app${o.client.client_uri ? ` (<a href="${e(o.client.client_uri)}">${e(new URL(o.client.client_uri).host)}</a>)` : ''}; ` +
    `after you allow it, it returns to <code>${e(returnTo.host || returnTo.protocol)}</code>.</p>` +
    `<h2>Brands it will work with</h2>${list(o.brands)}` +
    `<h2>It may</h2>${list(MAY)}<h2>It may not</h2>${list(MAY_NOT)}` +
    '<p class="hint">It counts against your plan like an API key, with its own rate limit. You can revoke it at any time on the AI apps page.</p>' +
    `<form method="post" action="/dashboard/apps/authorize">${csrfField(o.csrf)}${fields}` +
    '<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>';
}

/** A request that cannot go back to the app (unknown app or redirect URI). */
export function authorizeErrorBody(message: string): string {
  return `<h1>This sign-in request cannot be used</h1>${notice('error', message)}<p>Go back to the app and start the sign-in again.</p>`;
}

/** The AI apps page: every app the owner allowed with a revoke button for the live ones, then each live app's guardrails. */
export function appsBody(o: { apps: Array<AiApp & { guardrails?: Guardrails }>; brands: Brand[]; canGuard: boolean; csrf: string; message?: { kind: 'ok' | 'error'; text: string } }): string {
  const rows = o.apps.map((a) => `<tr id="${e(a.id)}"><th scope="row">${e(a.client_name)}</th><td><code>${e(a.redirect_host)}</code></td><td>${e(a.created_at.slice(0, 10))}</td>` +
    `<td>${a.revoked_at ? `Revoked ${e(a.revoked_at.slice(0, 10))}` : 'Active'}</td><td>${a.revoked_at ? '' :
      `<form method="post" action="/dashboard/apps/${e(a.id)}/revoke" class="inline">${csrfField(o.csrf)}<button type="submit" class="danger" aria-label="Revoke ${e(a.client_name)}">Revoke</button></form>`}</td></tr>`).join('');
  const live = o.apps.filter((a) => !a.revoked_at);
  const guards = !live.length ? '' : '<h2 id="guardrails">Guardrails</h2><p class="hint">Limits on what each app may post: a monthly cap, the networks and brands it may use, or approval for every post.</p>' +
    (o.canGuard
      ? live.map((a) => guardrailsForm({ name: a.client_name, action: `/dashboard/apps/${a.id}/guardrails`, idPrefix: a.id, guardrails: a.guardrails, brands: o.brands, csrf: o.csrf, fields: '' })).join('')
      : '<p class="hint">Guardrails are part of every paid plan. <a href="/dashboard/plan?plan=starter">See plans</a>.</p>');
  return `<h1>AI apps</h1>${o.message ? notice(o.message.kind, o.message.text) : ''}` +
    '<p>AI apps (MCP clients such as assistants and agents) you allowed to use your account through the MCP server. Revoking one ends its access at once.</p>' +
    `<h2>They may</h2>${list(MAY)}<h2>They may not</h2>${list(MAY_NOT)}` +
    (o.apps.length ? `<table><caption class="hint">Your AI apps</caption><thead><tr><th scope="col">App</th><th scope="col">Returns to</th><th scope="col">Allowed on</th><th scope="col">Status</th><th scope="col"><span class="hint">Action</span></th></tr></thead><tbody>${rows}</tbody></table>${guards}` :
      '<p>No AI app has been allowed yet.</p>');
}
