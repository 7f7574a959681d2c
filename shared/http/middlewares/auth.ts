import type { RouteDef } from '../route';
import { authenticate, requireScope } from '../../app/auth';
import { sessionPrincipal } from '../../app/dashboard/sign-in';
import { requiredScope } from '../../domain/api-key';
import { AppError, ForbiddenError } from '../../domain/errors';
import { isOutage } from '../outage';
import { csrfMatches, presentedCsrf, readCookie, sessionCookieName } from '../session';
import { appendLogContext } from '../../log';
import { unavailable } from './error-handler';
import { stateOf, type Mw, type Req } from './request-state';

/** Dashboard pages (paths under /dashboard) redirect to the sign-in page instead of answering 403. */
const isPage = (route: RouteDef) => route.path === '/dashboard' || route.path.startsWith('/dashboard/');

/**
 * Session routes (issue 16): the session cookie must name a live session (an API key, or no session, is 403
 * `session_required`; a dashboard page GET without a session is a 303 to the sign-in page with a return path), and
 * every state-changing request must present the session's CSRF token (403 `csrf_failed`, nothing changed).
 */
async function authSession(route: RouteDef, req: Req): Promise<void> {
  const s = stateOf(req.context);
  const e = req.event;
  const required = () => new ForbiddenError('This can be done only from a signed-in dashboard session, never with an API key', { code: 'session_required' });
  if (/^Bearer\s/i.test(e.headers?.authorization ?? '')) throw required();
  const id = readCookie(e, sessionCookieName(s.deps.settings.publicBaseUrl));
  const principal = id ? await sessionPrincipal(s.deps, id) : undefined;
  if (!principal) {
    if (isPage(route) && (route.method === 'GET' || route.method === 'HEAD')) {
      const back = e.rawPath + (e.rawQueryString ? `?${e.rawQueryString}` : '');
      const location = `/dashboard/sign-in?return=${encodeURIComponent(back)}`;
      throw new AppError(303, 'session_required', 'Sign in to the dashboard first', { headers: { location } });
    }
    throw required();
  }
  if (route.method !== 'GET' && route.method !== 'HEAD' && !csrfMatches(presentedCsrf(e), principal.csrf)) {
    throw new ForbiddenError('The form is out of date or did not come from the dashboard: reload the page and try again', { code: 'csrf_failed' });
  }
  s.session = principal;
}

/** Authenticates the bearer key and checks its scope (key routes), or the dashboard session (session routes). */
export function auth(route: RouteDef): Mw {
  return {
    before: async (req: Req) => {
      if (route.auth === 'open') return;
      const s = stateOf(req.context);
      try {
        if (route.auth === 'session') return await authSession(route, req);
        s.principal = await authenticate(s.deps, req.event.headers?.authorization, { publishing: requiredScope(route) === 'publish' });
      } catch (err) {
        if (!(err instanceof AppError) && isOutage(err)) throw unavailable('auth_unavailable', 'Authentication');
        throw err;
      }
      appendLogContext({ account_id: s.principal.account.id });
      requireScope(s.principal, requiredScope(route));
    },
  };
}
