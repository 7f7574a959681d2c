import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';

/** The Catalog routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const catalogRoutes = {
  getPlatforms: {
    id: 'get-platforms', method: 'GET', path: '/api/platforms', tag: 'Catalog', auth: 'open', grants: ['oauthConfig'],
    summary: 'The networks, what each needs, and whether it is available now',
    responses: { 200: { description: 'The networks', schema: s.PlatformsResponse } },
  },
  getPlans: {
    id: 'get-plans', method: 'GET', path: '/api/plans', tag: 'Catalog', auth: 'open', grants: [],
    summary: 'Plans and their limits',
    responses: { 200: { description: 'The plan table', schema: s.PlansResponse } },
  },
  getOpenapi: {
    id: 'get-openapi', method: 'GET', path: '/api/openapi.json', tag: 'Catalog', auth: 'open', grants: [],
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'OpenAPI document' } },
  },
} as const satisfies Record<string, RouteDef>;
