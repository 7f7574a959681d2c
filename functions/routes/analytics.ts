import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as a from '../../shared/api/analytics-schemas';
import { E, std } from './errors';

/** Post analytics, in THE route table (functions/routes.ts). */
export const analyticsRoutes = {
  getPostAnalytics: {
    id: 'get-post-analytics', method: 'GET', path: '/api/posts/{id}/analytics', tag: 'Analytics', auth: 'key', scope: 'read',
    // kms + networks + oauthConfig: refresh=1 reads the networks with the connection's (renewed) credentials; ses: a lost sign-in is emailed
    grants: ['table', 'kms', 'oauthConfig', 'ses'], networks: true,
    summary: "A post's figures per network (impressions, reach, likes, comments, shares, quotes, saves, clicks, video_views; null where not offered); refresh=1 fetches now",
    params: s.IdParams, query: a.PostAnalyticsQuery, timeoutSeconds: 29,
    responses: { 200: { description: 'Analytics per network', schema: a.PostAnalyticsResponse }, 400: E('invalid_request'), 403: E('key_scope'), 404: E('not_found'), ...std },
  },
  getAnalytics: {
    id: 'get-analytics', method: 'GET', path: '/api/analytics', tag: 'Analytics', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'Totals, a daily series by network and brand, and the top posts of the posts published in a date range',
    query: a.AnalyticsQuery, timeoutSeconds: 29, memoryMb: 512,
    responses: { 200: { description: 'Analytics summary', schema: a.AnalyticsResponse }, 400: E('invalid_request'), 403: E('key_scope'), ...std },
  },
  getAnalyticsExport: {
    id: 'get-analytics-export', method: 'GET', path: '/api/analytics/export', tag: 'Analytics', auth: 'key', scope: 'read', grants: ['table', 'bucket'],
    summary: 'CSV of the figures per post and network in a date range: written to storage, answered as a 15-minute download link',
    query: a.AnalyticsQuery, timeoutSeconds: 29, memoryMb: 512,
    responses: { 200: { description: 'The download link', schema: a.AnalyticsExportResponse }, 400: E('invalid_request'), 403: E('key_scope'), ...std },
  },
} as const satisfies Record<string, RouteDef>;
