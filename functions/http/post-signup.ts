import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { accountRoutes as routes } from '../routes/account';
import { signup } from '../../shared/app/signup';

export const handler = httpHandler(routes.postSignup, async (req) => ok(await signup(req.deps, { email: req.body.email, ip: req.ip })));
