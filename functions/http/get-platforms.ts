import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { catalogRoutes as routes } from '../routes/catalog';
import { listPlatforms } from '../../shared/app/platforms';

export const handler = httpHandler(routes.getPlatforms, async ({ deps }) => ok({ platforms: await listPlatforms(deps) }, { 'cache-control': 'public, max-age=300' }));
