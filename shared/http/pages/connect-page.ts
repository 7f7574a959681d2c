import { escapeHtml as e, type Reply } from '../reply';
import { DEFAULT_ACCENT, readableAccent } from '../colors';
import { FAVICON } from '../favicon';
import { networkName, networkSprite } from '../network-icons';
import type { NetworkDescriptor } from '../../networks/descriptor';
import { NETWORKS } from '../../networks/network-list';
import type { ConnectPageModel, NetworkRow } from '../../app/connect-page';

/**
 * The hosted pages (connect link, OAuth result and picker): plain HTML, no script, no external asset, one small
 * inline style sheet; every control has a label and works with the keyboard; messages sit in live regions.
 */

/**
 * Headers of a hosted page: the token in the address never leaks in a Referer; nothing else may load; its forms post
 * only to this service (`form-action 'self'`) and to `formAction`, the origins a form's answer redirects on to (a
 * network's sign-in page, an app's redirect_after), since browsers check form-action on those redirects too.
 */
export function hostedHeaders(formAction: string[] = []): Record<string, string> {
  const targets = ["'self'", ...new Set(formAction)].join(' ');
  return {
    'referrer-policy': 'no-referrer',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; form-action ${targets}; base-uri 'none'; frame-ancestors 'none'`,
  };
}

/** Headers of a hosted page whose forms post only to this service. */
export const HOSTED_HEADERS: Record<string, string> = hostedHeaders();

/** A network's name as pages show it (its descriptor's displayName); anything else as given. */
export const displayName = (p: string, networks: readonly NetworkDescriptor[] = NETWORKS) => networks.find((d) => d.name === p)?.displayName ?? p;

const FIELD_LABELS: Record<string, string> = {
  bot_token: 'Bot token', chat_id: 'Chat ID or @channel', handle: 'Handle', app_password: 'App password', instance_url: 'Instance URL',
  access_token: 'Access token', webhook_url: 'Webhook URL', site_url: 'Site URL', username: 'Username', default_status: 'Default status',
  api_key: 'API key', token: 'Personal access token', publication: 'Publication', nsec: 'Secret key (nsec)', relays: 'Relays',
};
const FIELD_HINTS: Record<string, string> = {
  chat_id: 'The channel’s @username or its numeric id; the bot must be an admin there.',
  handle: 'For example name.bsky.social.', app_password: 'Create one under Settings → App passwords; never your main password.',
  instance_url: 'For example https://mastodon.social.', site_url: 'For example https://blog.example.com.',
  default_status: 'publish or draft (optional).', publication: 'The publication’s host or id (optional).',
  relays: 'Comma-separated wss:// addresses (optional).',
};
const SECRET_FIELDS = new Set(['bot_token', 'app_password', 'access_token', 'api_key', 'token', 'nsec']);
const URL_FIELDS = new Set(['instance_url', 'webhook_url', 'site_url']);

const STYLE_WITH_DEFAULT_ACCENT = 'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fff}' +
  'h1{font-size:1.6rem}h2{font-size:1.15rem;margin:0}ul.nets{list-style:none;padding:0}li.net{border:1px solid #c8c8c8;border-radius:8px;padding:1rem;margin:0 0 .75rem}' +
  '.state{font-weight:600}.state.ok{color:#0a6b2c}.state.warn{color:#8a4b00}.state.off{color:#555}' +
  'label{display:block;font-weight:600;margin-top:.5rem}input{font:inherit;width:100%;box-sizing:border-box;padding:.45rem;border:1px solid #767676;border-radius:4px}' +
  '.hint{color:#4a4a4a;font-size:.9rem;margin:.1rem 0 0}button{font:inherit;margin-top:.75rem;padding:.5rem 1rem;border-radius:6px;border:1px solid #0b57d0;background:#0b57d0;color:#fff;cursor:pointer}' +
  'button.secondary{background:#fff;color:#0b57d0}:focus-visible{outline:3px solid #f5a700;outline-offset:2px}fieldset{border:0;padding:0;margin:0}' +
  '.notice{padding:.75rem 1rem;border-radius:6px;margin:1rem 0}.notice.ok{background:#e6f4ea;border:1px solid #0a6b2c}.notice.error{background:#fdecea;border:1px solid #b3261e}' +
  'summary{cursor:pointer;color:#0b57d0;margin-top:.5rem}@media (prefers-color-scheme:dark){body{background:#121212;color:#eee}li.net{border-color:#555}.hint{color:#bbb}' +
  '.state.ok{color:#6dd58c}.state.warn{color:#ffb870}.state.off{color:#bbb}input{background:#1e1e1e;color:#eee}.notice.ok{background:#0f2e19}.notice.error{background:#3b1411}}';

/** The style sheet in the owner's accent colour (buttons, links; made readable on white): the service's blue otherwise. */
const hostedStyle = (accent: string | undefined) => STYLE_WITH_DEFAULT_ACCENT.split(DEFAULT_ACCENT).join(readableAccent(accent)) +
  '.net{display:inline-flex;align-items:center;gap:.4rem}.net-icon{flex:none}header.mark{display:flex;align-items:center;gap:.5rem}';

/** The owner's white label on a hosted page: name, logo and accent colour, and for Pro a small "powered by" line. */
export interface HostedMark {
  name: string;
  logoUrl?: string;
  /** #rrggbb: the page's buttons and links. */
  accent?: string;
  poweredBy?: string;
}

function markHeader(mark: HostedMark | undefined): string {
  if (!mark) return '';
  return `<header class="mark">${mark.logoUrl ? `<img src="${e(mark.logoUrl)}" alt="" height="32">` : ''}<b>${e(mark.name)}</b>` +
    (mark.poweredBy ? ` <span class="hint">powered by ${e(mark.poweredBy)}</span>` : '') + '</header>';
}

/** A complete hosted page. */
export function hostedPage(title: string, body: string, mark?: HostedMark): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${e(title)}</title>${FAVICON}<style>${hostedStyle(mark?.accent)}</style></head><body>${markHeader(mark)}<main>${body}</main>${networkSprite(body)}</body></html>`;
}

export const hostedReply = (status: number, title: string, body: string): Reply => ({ status, html: hostedPage(title, body), headers: HOSTED_HEADERS });

/** A 303 to the next page (the network's authorize URL, back to the connect page, or redirect_after). */
export const seeOther = (location: string): Reply => ({ status: 303, headers: { location, ...HOSTED_HEADERS } });

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  /** The network the message is about: its section shows it (and its form opens). */
  platform?: string;
}

const stateText: Record<NetworkRow['status'], [string, string]> = {
  connected: ['ok', 'Connected'], reauth_required: ['warn', 'Needs a new sign-in'], not_connected: ['off', 'Not connected'],
  not_configured: ['off', 'Not configured on this server'], unavailable: ['off', 'Not available right now'],
};

function noticeHtml(n: Notice): string {
  return `<div class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${e(n.text)}</div>`;
}

const tokenField = (formToken: string | undefined) => (formToken ? `<input type="hidden" name="form_token" value="${e(formToken)}">` : '');

/** Said before a form that would replace the brand's current connection of that network. */
function replaceWarning(row: NetworkRow): string {
  if (row.status !== 'connected' && row.status !== 'reauth_required') return '';
  return `<p class="hint" id="${row.platform}-replaces">Connecting again replaces the current ${e(displayName(row.platform))} connection` +
    `${row.handle ? ` (${e(row.handle)})` : ''} for this brand.</p>`;
}

function credentialForm(base: string, row: NetworkRow, open: boolean, formToken?: string): string {
  const name = displayName(row.platform);
  const input = (field: string, required: boolean) => {
    const id = `${row.platform}-${field}`;
    const type = SECRET_FIELDS.has(field) ? 'password' : URL_FIELDS.has(field) ? 'url' : 'text';
    const hint = FIELD_HINTS[field];
    return `<label for="${id}">${e(FIELD_LABELS[field] ?? field)}${required ? '' : ' (optional)'}</label>` +
      `<input id="${id}" name="${e(field)}" type="${type}" autocomplete="off" spellcheck="false"${required ? ' required' : ''}${hint ? ` aria-describedby="${id}-hint"` : ''}>` +
      (hint ? `<p class="hint" id="${id}-hint">${e(hint)}</p>` : '');
  };
  const again = row.status === 'connected' || row.status === 'reauth_required';
  return `<details${open ? ' open' : ''}><summary>${again ? 'Connect again' : 'Enter credentials'}</summary>` +
    replaceWarning(row) +
    `<form method="post" action="${e(`${base}/credentials/${row.platform}`)}">${tokenField(formToken)}<fieldset><legend class="hint">${e(name)} credentials, checked with ${e(name)} before they are saved (encrypted)</legend>` +
    row.fields.map((f) => input(f, true)).join('') + row.optional_fields.map((f) => input(f, false)).join('') +
    `<button type="submit">Connect ${e(name)}</button></fieldset></form></details>`;
}

function rowHtml(base: string, row: NetworkRow, notice?: Notice, single?: boolean, formToken?: string): string {
  const name = displayName(row.platform);
  const [cls, label] = stateText[row.status];
  const state = row.handle ? `${label} as ${row.handle}` : label;
  const possible = row.status !== 'not_configured' && row.status !== 'unavailable';
  const again = row.status === 'connected' || row.status === 'reauth_required';
  let action = '';
  if (possible && row.oauth) {
    action = replaceWarning(row) +
      `<form method="post" action="${e(`${base}/oauth/${row.platform}`)}">${tokenField(formToken)}<button type="submit"${again ? ` class="secondary" aria-describedby="${row.platform}-replaces"` : ''}>` +
      `${again ? 'Sign in to' : 'Connect with'} ${e(name)}</button></form>`;
  } else if (possible) {
    action = credentialForm(base, row, !!single || notice?.platform === row.platform, formToken);
  }
  const own = notice?.platform === row.platform ? noticeHtml(notice) : '';
  return `<li class="net" id="net-${row.platform}" data-status="${row.status}"><h2>${networkName(row.platform, name)}</h2>` +
    `<p class="state ${cls}">${e(state)}</p>${own}${action}</li>`;
}

/** The hosted connect page of a link: the brand, every network (or the link's one) and how to connect each. */
export function connectPageHtml(m: ConnectPageModel, base: string, nowMs: number, notice?: Notice, mark?: HostedMark, formToken?: string): string {
  const minutes = Math.max(0, Math.round((m.link.expires_at * 1000 - nowMs) / 60_000));
  const until = new Date(m.link.expires_at * 1000).toISOString().slice(11, 16);
  const connected = m.networks.filter((n) => n.status === 'connected').length;
  const single = m.networks.length === 1;
  const title = `Connect ${single ? displayName(m.networks[0].platform) : 'your accounts'} to ${m.brand.name}`;
  return hostedPage(title, `<h1>${e(title)}</h1>` +
    `<p>Connections made here are saved for <b>${e(m.brand.name)}</b>. No account or password for this service is needed. ` +
    `This link works until ${until} UTC (about ${minutes} minute${minutes === 1 ? '' : 's'} from now).</p>` +
    (notice && !notice.platform ? noticeHtml(notice) : '') +
    `<p>${connected} of ${m.networks.length} network${m.networks.length === 1 ? '' : 's'} connected.</p>` +
    `<ul class="nets">${m.networks.map((n) => rowHtml(base, n, notice, single, formToken)).join('')}</ul>`, mark);
}

/** 404 / 410 pages of a link that does not exist or has expired (403: the link cannot do that). */
export function linkErrorHtml(status: number, message: string): string {
  const title = status === 410 ? 'This link has expired' : status === 403 ? 'This link cannot do that' : 'This link does not work';
  return hostedPage(title, `<h1>${e(title)}</h1><p role="alert">${e(message)}</p>` +
    '<p>Ask the person who sent it for a new connect link. Nothing was changed.</p>');
}
