import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { schedulingRoutes as routes } from '../routes/scheduling';
import { bulkSchedule } from '../../shared/app/schedule/create';
import { parseBulkCsv } from '../../shared/app/schedule/csv';

/** JSON {posts: [...]} or, with Content-Type text/csv, the raw CSV text (parsed here, so the MCP bundle has no CSV parser). */
export const handler = httpHandler(routes.postBulk, async (req) =>
  ok(await bulkSchedule(req.deps, req.principal.account, req.rawBody !== undefined ? { csv: parseBulkCsv(req.rawBody) } : { posts: req.body.posts }, req.principal.actor, req.principal.context)));
