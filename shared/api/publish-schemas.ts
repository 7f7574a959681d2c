import * as z from 'zod';

/** Request and response schemas of connections and publishing (OpenAPI is generated from these). */

export const ConnectBody = z.object({
  platform: z.string().min(1).max(40),
  credentials: z.record(z.string(), z.unknown()),
  brand_id: z.string().max(100).optional(),
}).strict();

export const ConnectionHealth = z.object({
  state: z.enum(['healthy', 'expiring', 'reauth_required', 'network_down']).describe('healthy; expiring (the sign-in lapses at expires_at unless someone signs in again); reauth_required; network_down (the network could not be reached to check or renew the sign-in, since `since`)'),
  expires_at: z.string().optional().describe('expiring: when the sign-in lapses (ISO 8601)'),
  since: z.string().optional().describe('network_down: since when (ISO 8601)'),
  error: z.string().optional().describe("network_down: the network's last answer"),
}).meta({ id: 'ConnectionHealth' });
export const ConnectionView = z.object({
  id: z.string(), platform: z.string(), brand_id: z.string(), handle: z.string(), label: z.string(),
  status: z.enum(['active', 'reauth_required']), connected_at: z.string(),
  health: ConnectionHealth.optional().describe('The connection\'s health (REST: GET /api/connections, GET /api/connect/{platform}/health; MCP: get_connection_health)'),
}).meta({ id: 'Connection' });
export const ConnectResponse = z.object({ ok: z.literal(true), connection: ConnectionView });
export const ConnectionsResponse = z.object({
  connections: z.array(ConnectionView),
  brands: z.array(z.object({ id: z.string(), name: z.string(), connections: z.array(ConnectionView) })),
});
export const PlatformParams = z.object({ platform: z.string().max(40) });
export const BrandQuery = z.object({ brand_id: z.string().max(100).optional() });
export const HealthResponse = z.object({
  platform: z.string(), brand_id: z.string(), connection_id: z.string(), handle: z.string(), checked_at: z.string(),
  ok: z.boolean(), status: z.string(), code: z.string().optional(), error: z.string().optional(), health: ConnectionHealth.optional(),
}).catchall(z.unknown());

export const NetworkResultSchema = z.object({
  platform: z.string(), ok: z.boolean(), status: z.string(),
  code: z.string().optional(), error: z.string().optional(), what: z.string().optional(), fix: z.string().optional(),
  held: z.boolean().optional(), deferred: z.boolean().optional(), schedule_id: z.string().optional(), run_at: z.string().optional(),
  retry_after: z.number().optional(), upgrade_url: z.string().optional(), id: z.string().optional(), url: z.string().optional(),
}).meta({ id: 'NetworkResult' });
export const PostResponse = z.object({ post_id: z.string(), brand_id: z.string(), results: z.array(NetworkResultSchema) });
/** POST /api/validate: per network ok, or the failure the real send would answer. */
export const ValidateResponse = z.object({
  ok: z.boolean(), brand_id: z.string(), pending_approval: z.boolean(), run_at: z.string().optional(), media_checked: z.boolean(),
  results: z.array(NetworkResultSchema),
}).meta({ id: 'ValidateResponse' });
export const StatusQuery = z.object({ platform: z.string().min(1).max(40), id: z.string().min(1).max(300) });
export const StatusResponse = z.object({ platform: z.string(), id: z.string(), post_id: z.string(), status: z.string() }).catchall(z.unknown());
export const PostsQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(20), before: z.string().max(40).optional() });
export const PostView = z.object({
  id: z.string(), brand_id: z.string(), source: z.string(), platforms: z.array(z.string()), created_at: z.string(),
  results: z.array(NetworkResultSchema),
}).catchall(z.unknown()).meta({ id: 'Post' });
export const PostsResponse = z.object({ posts: z.array(PostView), next_before: z.string().nullable() });
