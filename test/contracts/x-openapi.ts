import fs from 'node:fs';
import path from 'node:path';
import { type OpenApiDoc, openApiRequestCheck } from './openapi-requests';

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, 'x-openapi.json'), 'utf8')) as OpenApiDoc;

/**
 * What a request to X's API v2 breaks in X's published OpenAPI document (see README.md beside this file). The OAuth
 * token endpoint (not in the document) and the test media the fake serves are left out.
 */
export const xApiViolations = openApiRequestCheck(doc, (req) => req.path.startsWith('/2/') && req.path !== '/2/oauth2/token');
