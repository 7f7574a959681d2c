import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mcpRoutes as routes } from '../routes/mcp';
import { protectedResourceMetadata } from '../../shared/app/mcp-oauth/authorization-server';

/** RFC 9728: the MCP server's protected resource metadata (named in every MCP 401). */
export const handler = httpHandler(routes.getOauthProtectedResource, async (req) =>
  ok(protectedResourceMetadata(req.deps), { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }));
