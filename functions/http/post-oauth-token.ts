import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { mcpRoutes as routes } from '../routes/mcp';
import { tokenRequest } from '../../shared/app/mcp-oauth/tokens';
import { oauthForm } from '../../shared/http/oauth-form';

/** The token endpoint (form-encoded): code + PKCE verifier, or a refresh token, for new tokens. */
export const handler = httpHandler(routes.postOauthToken, async (req) => ok(await tokenRequest(req.deps, oauthForm(req)), { pragma: 'no-cache' }));
