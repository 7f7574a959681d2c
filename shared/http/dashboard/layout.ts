import type { Reply } from '../reply';
import { escapeHtml as e } from '../reply';

/**
 * The dashboard's page shell (issue 16): one layout for every dashboard page (and the hosted pages other features
 * add in the same look): skip link, navigation, sign-out button, white-label mark, a strict CSP (no script at all,
 * one inline style sheet), and the CSRF hidden field for forms. Pages work without JavaScript.
 */

/** Headers of every dashboard page. `formAction` adds origins a form may post/redirect to (e.g. an OAuth client). */
export function dashboardHeaders(opts: { formAction?: string[] } = {}): Record<string, string> {
  const formAction = ["'self'", ...(opts.formAction ?? [])].join(' ');
  return {
    'referrer-policy': 'same-origin',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
  };
}

/** The mark shown in the header: the service's own, or the account's white label (Branding page). */
export interface Mark {
  name: string;
  logoUrl?: string;
  /** #rrggbb, used for buttons and links. */
  accent?: string;
  /** Pro: a small "powered by" line beside the owner's mark. */
  poweredBy?: string;
}

export const SERVICE_MARK: Mark = { name: 'Social Publishing' };

export const NAV: ReadonlyArray<{ id: string; href: string; label: string }> = [
  { id: 'overview', href: '/dashboard', label: 'Overview' },
  { id: 'posts', href: '/dashboard/posts', label: 'Posts' },
  { id: 'calendar', href: '/dashboard/calendar', label: 'Calendar' },
  { id: 'approvals', href: '/dashboard/approvals', label: 'Approvals' },
  { id: 'keys', href: '/dashboard/keys', label: 'API keys' },
  { id: 'brands', href: '/dashboard/brands', label: 'Brands' },
  { id: 'connections', href: '/dashboard/connections', label: 'Connections' },
  { id: 'webhooks', href: '/dashboard/webhooks', label: 'Webhooks' },
  { id: 'branding', href: '/dashboard/branding', label: 'Branding' },
  { id: 'apps', href: '/dashboard/apps', label: 'AI apps' },
  { id: 'plan', href: '/dashboard/plan', label: 'Plan' },
];

/** The hidden field every dashboard form carries (checked by the session middleware). */
export const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${e(csrf)}">`;

const safeAccent = (c: string | undefined) => (c && /^#[0-9a-fA-F]{6}$/.test(c) ? c : '#0b57d0');

function style(accent: string): string {
  return 'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}' +
    '.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}' +
    'header{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid #c8c8c8}' +
    'header .mark{font-weight:700;font-size:1.1rem;display:flex;align-items:center;gap:.5rem}header .mark img{max-height:32px;max-width:160px}' +
    '.powered{font-size:.8rem;color:#4a4a4a}nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}' +
    `nav a{color:${accent};text-decoration:none;padding:.25rem 0}nav a[aria-current=page]{font-weight:700;border-bottom:3px solid ${accent};color:#1b1b1b}` +
    'header form{margin-left:auto}main{max-width:64rem;margin:1.5rem auto;padding:0 1.5rem}h1{font-size:1.6rem}h2{font-size:1.2rem}' +
    'table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border-bottom:1px solid #c8c8c8;padding:.4rem .5rem;text-align:left;vertical-align:top}' +
    'label{display:block;font-weight:600;margin-top:.5rem}input,select,textarea{font:inherit;padding:.4rem;border:1px solid #767676;border-radius:4px;box-sizing:border-box}' +
    `input[type=text],input[type=email],input[type=url],input[type=number],textarea,select{width:100%;max-width:28rem}a{color:${accent}}` +
    `button,.button{font:inherit;display:inline-block;margin-top:.5rem;padding:.45rem 1rem;border-radius:6px;border:1px solid ${accent};background:${accent};color:#fff;cursor:pointer;text-decoration:none}` +
    `button.secondary,.button.secondary{background:#fff;color:${accent}}button.danger{background:#b3261e;border-color:#b3261e}` +
    ':focus-visible{outline:3px solid #f5a700;outline-offset:2px}.hint{color:#4a4a4a;font-size:.9rem;margin:.1rem 0 0}' +
    '.notice{padding:.75rem 1rem;border-radius:6px;margin:1rem 0}.notice.ok{background:#e6f4ea;border:1px solid #0a6b2c}.notice.error{background:#fdecea;border:1px solid #b3261e}' +
    'dt{font-weight:600}.bar{height:.75rem;background:#e3e3e3;border:1px solid #767676;border-radius:4px;overflow:hidden;max-width:24rem}.bar span{display:block;height:100%;background:#0a6b2c}.bar.warn span{background:#8a4b00}' +
    '.warn-text{color:#8a4b00;font-weight:600}.inline{display:inline}.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}' +
    '.card{border:1px solid #c8c8c8;border-radius:8px;padding:1rem}fieldset{border:1px solid #c8c8c8;border-radius:6px;margin:1rem 0}' +
    'code{background:#f3f3f3;padding:.1rem .3rem;border-radius:4px;word-break:break-all}';
}

/** A complete page without navigation (sign-in, emailed links, client approver page). */
export function plainPage(opts: { title: string; body: string; mark?: Mark }): string {
  const mark = opts.mark ?? SERVICE_MARK;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(opts.title)} · ${e(mark.name)}</title><style>${style(safeAccent(mark.accent))}</style></head><body>` +
    `<header>${markHtml(mark)}</header><main id="main">${opts.body}</main></body></html>`;
}

function markHtml(mark: Mark): string {
  return `<div class="mark">${mark.logoUrl ? `<img src="${e(mark.logoUrl)}" alt="">` : ''}<span>${e(mark.name)}</span></div>` +
    (mark.poweredBy ? `<span class="powered">powered by ${e(mark.poweredBy)}</span>` : '');
}

/** A complete signed-in dashboard page: header with mark, navigation (current page marked), sign-out, content. */
export function dashboardShell(opts: { title: string; active: string; csrf: string; email: string; body: string; mark?: Mark; /** A page's own style rules. */ style?: string }): string {
  const mark = opts.mark ?? SERVICE_MARK;
  const nav = NAV.map((n) => `<li><a href="${n.href}"${n.id === opts.active ? ' aria-current="page"' : ''}>${e(n.label)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(opts.title)} · ${e(mark.name)}</title><style>${style(safeAccent(mark.accent))}${opts.style ?? ''}</style></head><body>` +
    `<a class="skip" href="#main">Skip to content</a><header>${markHtml(mark)}<nav aria-label="Dashboard"><ul>${nav}</ul></nav>` +
    `<form method="post" action="/dashboard/sign-out">${csrfField(opts.csrf)}<span class="hint">${e(opts.email)}</span> <button type="submit" class="secondary">Sign out</button></form></header>` +
    `<main id="main">${opts.body}</main></body></html>`;
}

/** A dashboard HTML reply with the dashboard headers. */
export const pageReply = (status: number, page: string, headers: Record<string, string> = {}): Reply =>
  ({ status, html: page, headers: { ...dashboardHeaders(), ...headers } });

/** A 303 to another page (after a form post). */
export const redirect = (location: string, cookies?: string[]): Reply => ({ status: 303, headers: { location, ...dashboardHeaders() }, cookies });

export const notice = (kind: 'ok' | 'error', text: string) =>
  `<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${e(text)}</div>`;
