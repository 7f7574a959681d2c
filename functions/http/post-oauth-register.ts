import { httpHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/reply';
import { mcpRoutes as routes } from '../routes/mcp';
import { registerClient } from '../../shared/app/mcp-oauth/clients';

/** Dynamic client registration (RFC 7591): 201 with the client_id of a public client. */
export const handler = httpHandler(routes.postOauthRegister, async (req) => created(await registerClient(req.deps, req.body)));
