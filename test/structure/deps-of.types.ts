/*
 * Type test, checked by `tsc --noEmit` (the first step of `npm test`), never run: a function sees only the
 * dependencies its declaration wires (shared/wiring/declaration.ts, DepsOf). Each `@ts-expect-error` line must fail
 * to compile; if one compiled (a route reaching an adapter it does not declare), tsc reports the unused directive.
 */
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import type { DepsOf, Grant } from '../../shared/wiring/declaration';
import type { Deps } from '../../shared/app/deps';
import { apiKeysRoutes } from '../../functions/routes/api-keys';
import { catalogRoutes } from '../../functions/routes/catalog';
import { connectionsRoutes } from '../../functions/routes/connections';
import { webhookWorker } from '../../functions/workers';
import { listApiKeys } from '../../shared/app/api-keys';

// GET /api/keys declares the table only: its stores, and the members every function has.
export const declared = httpHandler(apiKeysRoutes.getKeys, async (req) => {
  await req.deps.keys.listByAccount(req.principal.account.id);
  return ok({ now: req.deps.clock.now(), base: req.deps.settings.publicBaseUrl, keys: await listApiKeys(req.deps, req.principal.account.id) });
});

export const undeclared = httpHandler(apiKeysRoutes.getKeys, async (req) => {
  // @ts-expect-error no 'ses' grant: no mailer
  await req.deps.mailer.send({ to: 'a@example.org', subject: 's', text: 't' });
  // @ts-expect-error no `networks: true`: no network adapters
  void req.deps.networks;
  // @ts-expect-error no 'publishQueue' or 'webhookQueue' grant: no queue
  void req.deps.queue;
  // @ts-expect-error no kms grant: no cipher
  void req.deps.cipher;
  // @ts-expect-error neither `networks` nor 'oauthConfig': no OAuth at all
  void req.deps.oauth;
  return ok({});
});

// GET /api/platforms declares 'oauthConfig' only: the client registrations, not the sign-in providers.
export const halfOAuth = httpHandler(catalogRoutes.getPlatforms, async (req) => {
  await req.deps.oauth.clients.get('x');
  // @ts-expect-error the sign-in providers need `networks: true`
  void req.deps.oauth.providers;
  // @ts-expect-error no table grant: no stores
  void req.deps.accounts;
  return ok({});
});

// A route with `networks: true` and 'oauthConfig' has both halves and the adapters.
export const wholeOAuth = httpHandler(connectionsRoutes.getConnectHealth, async (req) => ok([req.deps.oauth.providers, req.deps.oauth.clients, req.deps.networks]));

// Workers are typed by their own declaration: the webhook worker sends and decrypts, but publishes nothing.
export function webhookWorkerReach(deps: DepsOf<typeof webhookWorker>) {
  void deps.webhookSender;
  void deps.cipher;
  // @ts-expect-error the webhook worker does not declare `networks: true`
  void deps.networks;
}

// A whole Deps (tests, the container) is assignable to any function's view.
export const wholeFits = (deps: Deps): DepsOf<{ grants: readonly Grant[]; networks: true }> => deps;
