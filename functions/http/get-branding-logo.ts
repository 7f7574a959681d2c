import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { brandingLogoDownloadUrl } from '../../shared/app/dashboard/branding-logo';

/** A branding's stored logo: 302 to a fresh short-lived presigned GET of the object (404 once replaced). */
export const handler = httpHandler(routes.getBrandingLogo, async (req) => ({
  status: 302,
  headers: { location: await brandingLogoDownloadUrl(req.deps, req.params.file), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
}));
