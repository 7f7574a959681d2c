import { httpHandler } from '../../shared/http/handler';
import { connectionsRoutes as routes } from '../routes/connections';
import { AppError } from '../../shared/domain/errors';
import { isPlatformName } from '../../shared/domain/platforms';
import { connectPage } from '../../shared/app/connect-link/links';
import { connectPageUrl } from '../../shared/app/connect-link/issue';
import { newFormToken } from '../../shared/http/form-guard';
import { connectPageHtml, displayName, HOSTED_HEADERS, hostedHeaders, linkErrorHtml, type Notice } from '../../shared/http/pages/connect-page';
import { signInOrigins } from '../../shared/app/oauth/flow';
import { markFor } from '../../shared/app/dashboard/branding';

const FAILURES: Record<string, string> = {
  oauth_denied: 'access was not granted, so nothing was connected',
  oauth_state_expired: 'the sign-in took too long; try again',
  oauth_pick_expired: 'the choice took too long; try again',
  oauth_no_accounts: 'that sign-in has no page or account to post as',
  oauth_not_configured: 'this network is not configured on this server',
};

/** GET /connect/{token}: the hosted page (404 / 410 pages for unknown or expired links). */
export const handler = httpHandler(routes.getConnectPage, async (req) => {
  try {
    const model = await connectPage(req.deps, req.params.token);
    let notice: Notice | undefined;
    const { connected, failed, code } = req.query;
    if (connected && isPlatformName(connected)) {
      const row = model.networks.find((n) => n.platform === connected);
      notice = { kind: 'ok', platform: connected, text: `${displayName(connected)} is connected${row?.handle ? ` as ${row.handle}` : ''}.` };
    } else if (failed && isPlatformName(failed)) {
      notice = { kind: 'error', platform: failed, text: `${displayName(failed)} was not connected: ${FAILURES[code ?? ''] ?? `the sign-in did not complete (${code ?? 'unknown'}); try again`}.` };
    }
    const mark = await markFor(req.deps, model.link.account_id, model.brand.id);
    const form = newFormToken(req.deps.settings.publicBaseUrl);
    return {
      status: 200, html: connectPageHtml(model, connectPageUrl(req.deps, req.params.token), req.deps.clock.now(), notice, mark, form.token),
      headers: hostedHeaders(await signInOrigins(req.deps, model.networks.map((n) => n.platform))), cookies: [form.cookie],
    };
  } catch (err) {
    if (err instanceof AppError && (err.status === 404 || err.status === 410)) return { status: err.status, html: linkErrorHtml(err.status, err.message), headers: HOSTED_HEADERS };
    throw err;
  }
});
