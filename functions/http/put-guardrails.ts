import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { guardrailsRoutes as routes } from '../routes/guardrails';
import { setGuardrails } from '../../shared/app/guardrails/guardrails';

/** Sets an actor's guardrails; only a signed-in owner with the CSRF token gets here (auth: 'session'). */
export const handler = httpHandler(routes.putGuardrails, async (req) =>
  ok(await setGuardrails(req.deps, req.principal.account, { kind: req.params.kind, id: req.params.id }, req.body)));
