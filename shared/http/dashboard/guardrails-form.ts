import type { Guardrails } from '../../ports/guardrails';
import type { Brand } from '../../ports/store';
import { PLATFORM_NAMES } from '../../domain/platforms';
import { escapeHtml as e } from '../reply';
import { networkName } from '../network-icons';
import { csrfField } from './layout';

/**
 * The guardrails form of one API key or AI app (monthly post cap, allowed networks and brands, always needs
 * approval): the same fields on the API keys page and the AI apps page. `fields` are the hidden fields that say
 * whose guardrails they are; `idPrefix` keeps the labels' ids unique on the page.
 */
export function guardrailsForm(o: { name: string; action: string; fields: string; idPrefix: string; guardrails?: Guardrails; brands: Brand[]; csrf: string }): string {
  const g = o.guardrails;
  const id = (s: string) => `${o.idPrefix}-${s}`;
  const box = (name: string, value: string, checked: boolean, labelHtml: string) =>
    `<label class="inline"><input type="checkbox" name="${name}" value="${e(value)}"${checked ? ' checked' : ''}> ${labelHtml}</label> `;
  return `<details${g ? ' open' : ''}><summary>Guardrails of ${e(o.name)}</summary>` +
    `<form method="post" action="${e(o.action)}">${csrfField(o.csrf)}${o.fields}` +
    `<label for="${id('cap')}">Monthly post cap (networks a month; empty: no cap)</label><input id="${id('cap')}" name="monthly_post_cap" type="number" min="0" value="${g?.monthly_post_cap ?? ''}">` +
    `<fieldset><legend>Networks</legend>${box('limit_platforms', 'on', !!g?.allowed_platforms, 'Only these networks:')}<div class="checks">` +
    PLATFORM_NAMES.map((p) => box('allowed_platforms', p, !!g?.allowed_platforms?.includes(p), networkName(p))).join('') + '</div></fieldset>' +
    `<fieldset><legend>Brands</legend>${box('limit_brands', 'on', !!g?.allowed_brands, 'Only these brands:')}<div class="checks">` +
    o.brands.map((b) => box('allowed_brands', b.id, !!g?.allowed_brands?.includes(b.id), e(b.name))).join('') + '</div></fieldset>' +
    `${box('always_require_approval', 'on', !!g?.always_require_approval, `Always require approval for posts from ${e(o.name)}`)}` +
    `<div><button type="submit">Save guardrails</button></div></form></details>`;
}
