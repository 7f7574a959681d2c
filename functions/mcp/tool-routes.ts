import type { KeyScope } from '../../shared/domain/api-key';
import type { RouteDef } from '../../shared/http/route';

/** What a tool takes from the REST route it mirrors: the scope it needs and the rate limit it shares. */
export interface ToolRoute { id: string; method: string; scope: KeyScope; rateLimit?: { limit: number; windowSeconds: number } }

/**
 * The REST routes the tools mirror, by route-table key: the fields of functions/routes that a tool call enforces. A
 * copy, not an import, so that the MCP bundle holds no other area's route definitions and response schemas (about
 * 20 KB); test/mcp/schemas.test.ts fails when one differs from the route table.
 */
export const TOOL_ROUTES = {
  deletePost: { id: 'delete-post', method: 'DELETE', scope: 'publish' },
  deleteRecurring: { id: 'delete-recurring', method: 'DELETE', scope: 'publish' },
  deleteSchedule: { id: 'delete-schedule', method: 'DELETE', scope: 'publish' },
  getBrands: { id: 'get-brands', method: 'GET', scope: 'read' },
  getConnectHealth: { id: 'get-connect-health', method: 'GET', scope: 'read', rateLimit: { limit: 240, windowSeconds: 3600 } },
  getConnections: { id: 'get-connections', method: 'GET', scope: 'read' },
  getMediaUploadLink: { id: 'get-media-upload-link', method: 'GET', scope: 'read' },
  getPostStatus: { id: 'get-post-status', method: 'GET', scope: 'read' },
  getPostAnalytics: { id: 'get-post-analytics', method: 'GET', scope: 'read' },
  getPosts: { id: 'get-posts', method: 'GET', scope: 'read' },
  getRecurringList: { id: 'get-recurring-list', method: 'GET', scope: 'read' },
  getSchedules: { id: 'get-schedules', method: 'GET', scope: 'read' },
  getUsage: { id: 'get-usage', method: 'GET', scope: 'read' },
  getX: { id: 'get-x', method: 'GET', scope: 'read' },
  postBrands: { id: 'post-brands', method: 'POST', scope: 'manage' },
  postBulk: { id: 'post-bulk', method: 'POST', scope: 'publish' },
  postConnectLink: { id: 'post-connect-link', method: 'POST', scope: 'manage' },
  postGenerate: { id: 'post-generate', method: 'POST', scope: 'publish' },
  postMediaUploadLink: { id: 'post-media-upload-link', method: 'POST', scope: 'publish', rateLimit: { limit: 30, windowSeconds: 3600 } },
  postPost: { id: 'post-post', method: 'POST', scope: 'publish', rateLimit: { limit: 60, windowSeconds: 60 } },
  postRecurring: { id: 'post-recurring', method: 'POST', scope: 'publish' },
  postSchedule: { id: 'post-schedule', method: 'POST', scope: 'publish' },
  patchPost: { id: 'patch-post', method: 'PATCH', scope: 'publish' },
  postValidate: { id: 'post-validate', method: 'POST', scope: 'publish' },
  postWeek: { id: 'post-week', method: 'POST', scope: 'publish' },
} as const satisfies Record<string, ToolRoute>;

/**
 * The MCP endpoint's own fields of the route table that its handler uses (the request log's route and method, browser
 * CORS), copied for the same reason: importing functions/routes/mcp.ts would evaluate every OAuth route's wire
 * schemas at each cold start. test/mcp/schemas.test.ts fails when they differ from the route table.
 */
export const MCP_ROUTE = { id: 'post-mcp', method: 'POST', browserCors: true } as const satisfies Pick<RouteDef, 'id' | 'method' | 'browserCors'>;
