import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import { E, std } from './errors';

/** The Brands routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const brandsRoutes = {
  postBrands: {
    id: 'post-brands', method: 'POST', path: '/api/brands', tag: 'Brands', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Create a brand (plan brand limit: 400 brand_limit_reached)',
    body: s.CreateBrandBody,
    responses: { 200: { description: 'Created', schema: s.CreateBrandResponse }, 400: E('Invalid input or brand_limit_reached'), ...std },
  },
  getBrands: {
    id: 'get-brands', method: 'GET', path: '/api/brands', tag: 'Brands', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'List brands',
    responses: { 200: { description: 'Brands', schema: s.BrandsResponse }, ...std },
  },
  patchBrand: {
    id: 'patch-brand', method: 'PATCH', path: '/api/brands/{id}', tag: 'Brands', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Rename a brand or set its timezone and posting slots',
    params: s.IdParams, body: s.PatchBrandBody,
    responses: { 200: { description: 'Updated', schema: s.BrandView }, 404: E('brand_not_found'), ...std },
  },
} as const satisfies Record<string, RouteDef>;
