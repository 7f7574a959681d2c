import fs from 'node:fs';
import path from 'node:path';
import { type OpenApiDoc, openApiRequestCheck } from './openapi-requests';

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'pinterest-openapi.json'), 'utf8')) as OpenApiDoc;

/**
 * What a request to Pinterest's API v5 breaks in Pinterest's published OpenAPI document (see README.md beside this
 * file). The OAuth token endpoint (/v5/oauth/token, outside the vendored part) and the upload to the media store
 * (not Pinterest's API) are left out.
 */
export const pinterestApiViolations = openApiRequestCheck(doc, (req) => req.path.startsWith('/v5/') && req.path !== '/v5/oauth/token', '/v5');
