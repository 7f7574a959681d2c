import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardScript } from '../../shared/http/dashboard/dashboard-script';

const SCRIPT = dashboardScript();

/** The dashboard's script module (same origin; the pages' CSP allows `script-src 'self'` only where they load it). */
export const handler = httpHandler(routes.getDashboardScript, async () => ({
  status: 200,
  html: SCRIPT,
  headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', 'content-security-policy': "default-src 'none'" },
}));
