import type { RecordedRequest } from '../../infra/local/sandbox/server';
import { openApiRequestCheck } from './openapi-requests';
import doc from './x-openapi.json';

/**
 * What a request to X's API v2 breaks in X's published OpenAPI document (see README.md beside this file). The OAuth
 * token endpoint (not in the document) and the test media the fake serves are left out.
 */
export const xApiViolations = openApiRequestCheck(doc as Parameters<typeof openApiRequestCheck>[0], (req) => req.path.startsWith('/2/') && req.path !== '/2/oauth2/token');
