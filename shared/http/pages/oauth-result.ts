import type { Deps } from '../../app/deps';
import { escapeHtml as e, type Reply } from '../reply';
import { connectPageUrl } from '../../app/connect-link/issue';
import { displayName, hostedHeaders, hostedReply, seeOther } from './connect-page';
import type { CallbackOutcome } from '../../app/oauth/flow';
import type { NetworkDescriptor } from '../../networks/descriptor';
import { NETWORKS } from '../../networks/network-list';

/** Query parameters a finished sign-in adds to redirect_after (and to the connect page). */
function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

/** What the sign-in's account picker calls one account of `platform` (its descriptor's accountNoun). */
export const accountNoun = (platform: string, networks: readonly NetworkDescriptor[] = NETWORKS): string =>
  networks.find((d) => d.name === platform)?.accountNoun ?? 'account';

function pickerHtml(o: Extract<CallbackOutcome, { kind: 'pick' }>, action: string): Reply {
  const name = displayName(o.platform);
  const what = accountNoun(o.platform);
  return hostedReply(200, `Choose a ${name} ${what}`, `<h1>Choose the ${e(name)} ${what} to connect</h1>` +
    `<p>Your sign-in can post as ${o.accounts.length} ${what}s. Pick the one for <b>${e(o.brand.name)}</b>.</p>` +
    `<form method="post" action="${e(action)}"><input type="hidden" name="pick" value="${e(o.pick)}"><ul class="nets">` +
    o.accounts.map((a) => `<li class="net"><button type="submit" name="account" value="${e(a.id)}">Connect ${e(a.handle)}</button></li>`).join('') +
    '</ul></form><p class="hint">This choice is valid for 15 minutes.</p>');
}

/** The picker's form answers with a redirect to redirect_after when the sign-in was started with one. */
function pickerReply(o: Extract<CallbackOutcome, { kind: 'pick' }>, action: string): Reply {
  const reply = pickerHtml(o, action);
  const back = o.redirect_after ? [new URL(o.redirect_after).origin] : [];
  return { ...reply, headers: { ...reply.headers, ...hostedHeaders(back) } };
}

/**
 * How a finished sign-in answers the browser:
 * - started from a connect link → 303 back to that page, which shows the outcome;
 * - started with redirect_after → 303 there with `platform`, `status` (connected / failed) and `connection_id` or `code`;
 * - otherwise a small result page (or the picker when the sign-in can post as several pages / accounts).
 */
export function callbackReply(deps: Pick<Deps, 'settings'>, o: CallbackOutcome): Reply {
  if (o.kind === 'pick') return pickerReply(o, `${deps.settings.publicBaseUrl}/api/oauth/${o.platform}/pick`);
  if (o.link_token) {
    const params: Record<string, string> = o.kind === 'connected' ? { connected: o.platform } : { failed: o.platform, code: o.code };
    return seeOther(withParams(connectPageUrl(deps, o.link_token), params));
  }
  if (o.redirect_after) {
    const params: Record<string, string> = o.kind === 'connected'
      ? { platform: o.platform, status: 'connected', connection_id: o.connection.id, brand_id: o.brand.id }
      : { platform: o.platform, status: 'failed', code: o.code };
    return seeOther(withParams(o.redirect_after, params));
  }
  const name = displayName(o.platform);
  if (o.kind === 'connected') {
    return hostedReply(200, `${name} connected`, `<h1>${e(name)} is connected</h1><p role="status">Connected as <b>${e(o.connection.handle)}</b> ` +
      `for <b>${e(o.brand.name)}</b>. You can close this page; posts to ${e(name)} in that brand now go to this account.</p>`);
  }
  return hostedReply(o.status, `${name} not connected`, `<h1>${e(name)} was not connected</h1><p role="alert">${e(o.message)}</p>` +
    `<p class="hint">Code: <code>${e(o.code)}</code>. Nothing was saved.</p>`);
}
