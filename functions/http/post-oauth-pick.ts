import { httpHandler } from '../../shared/http/handler';
import { connectionsRoutes as routes } from '../routes/connections';
import { formFields } from '../../shared/api/oauth-schemas';
import { completePick } from '../../shared/app/oauth/flow';
import { callbackReply } from '../../shared/http/pages/oauth-result';
import { assertSameOrigin } from '../../shared/http/form-guard';

/** The picker page's form: connects the chosen page / business account. */
export const handler = httpHandler(routes.postOauthPick, async (req) => {
  assertSameOrigin(req.headers, req.deps.settings.publicBaseUrl);
  const form = formFields(req.rawBody, req.body);
  return callbackReply(req.deps, await completePick(req.deps, req.params.platform, { pick: form.pick, account: form.account }));
});
