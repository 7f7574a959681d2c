import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { routeList, routes } from '../routes';
import { openApiDocument } from '../../shared/http/openapi';

let doc: unknown;

export const handler = httpHandler(routes.getOpenapi, async (req) => {
  doc ??= openApiDocument(routeList.filter((r) => !r.localOnly || req.deps.settings.runtime === 'local'), req.deps.settings.publicBaseUrl);
  return ok(doc);
});
