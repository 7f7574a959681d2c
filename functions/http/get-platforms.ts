import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { routes } from '../../infra/routes';
import { PLATFORMS } from '../../shared/domain/platforms';

export const handler = httpHandler(routes.getPlatforms, async () => ok({ platforms: PLATFORMS }, { 'cache-control': 'public, max-age=300' }));
