import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mcpRoutes as routes } from '../routes/mcp';
import { revokeToken } from '../../shared/app/mcp-oauth/tokens';
import { oauthForm } from '../../shared/http/oauth-form';

/** Token revocation (RFC 7009): 200 whether or not the token was known. */
export const handler = httpHandler(routes.postOauthRevoke, async (req) => ok(await revokeToken(req.deps, oauthForm(req))));
