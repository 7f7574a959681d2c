import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mcpRoutes as routes } from '../routes/mcp';
import { authorizationServerMetadata } from '../../shared/app/mcp-oauth/authorization-server';

/** RFC 8414: the authorization server metadata of the MCP server's OAuth sign-in. */
export const handler = httpHandler(routes.getOauthAuthorizationServer, async (req) =>
  ok(authorizationServerMetadata(req.deps), { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' }));
