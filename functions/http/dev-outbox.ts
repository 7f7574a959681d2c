import path from 'node:path';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { localRoutes as routes } from '../routes/local';
import { readOutbox } from '../../shared/adapters/local/outbox-mailer';
import { config } from '../../shared/config';
import { NotFoundError } from '../../shared/domain/errors';

/** Local mode only: the emails "sent", newest first. */
export const handler = httpHandler(routes.devOutbox, async (req) => {
  if (req.deps.settings.runtime !== 'local') throw new NotFoundError();
  return ok(await readOutbox(path.join(config().DATA_DIR, 'outbox')));
});
