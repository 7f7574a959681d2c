import type { z } from 'zod';
import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { BrandsForm, ConnectionsForm, WebhooksForm } from '../../api/dashboard-schemas';
import { BadRequestError } from '../../domain/errors';
import { PatchBrandBody } from '../../api/schemas';
import { createBrand, updateBrand } from '../brands';
import { connectionHealth, disconnect, listConnections, type ConnectionHealthDeps } from '../connections';
import { targetBrand } from '../guardrails/target-brand';
import { issueConnectLink } from '../connect-link/issue';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, rotateWebhookSecret, testWebhook } from '../webhooks/endpoints';
import { redeliver } from '../webhooks/delivery-sweep';
import { PLANS } from '../../domain/plans';

/**
 * The Brands, Connections and Webhooks pages of the dashboard: each action calls the same use case as
 * the API route that does it, so the rules (limits, checks, events) are the API's.
 */

export async function brandsAction(deps: Pick<Deps, 'accounts' | 'brands' | 'clock' | 'settings'>, account: Account, form: z.infer<typeof BrandsForm>) {
  if (form.action === 'create') {
    await createBrand(deps, account, form.name);
    return 'created';
  }
  const patch = PatchBrandBody.safeParse({ name: form.name, timezone: form.timezone, slots: form.slots.split(/[\s,]+/).filter(Boolean) });
  if (!patch.success) throw new BadRequestError(patch.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  await updateBrand(deps, account.id, form.brand_id, patch.data);
  return 'saved';
}

export async function connectionsPage(deps: Pick<Deps, 'brands' | 'clock' | 'connections' | 'settings'>, accountId: string) {
  return listConnections(deps, accountId);
}

/** check: the network is asked again (the answer is shown); link: a fresh connect link for a brand; disconnect. */
export async function connectionsAction(deps: ConnectionHealthDeps & Pick<Deps, 'guardrails'>, account: Account, form: z.infer<typeof ConnectionsForm>) {
  if (form.action === 'check') return { health: await connectionHealth(deps, account, form.platform, form.brand_id) };
  if (form.action === 'link') {
    const brand = await targetBrand(deps, account, form.brand_id);
    return { link: await issueConnectLink(deps, account.id, brand.id, form.platform) };
  }
  await disconnect(deps, account.id, form.connection_id);
  return { done: 'disconnected' };
}

export async function webhooksPage(deps: Pick<Deps, 'webhooks'>, account: Account, logOf?: string) {
  const { webhooks } = await listWebhooks(deps, account.id);
  const log = logOf ? { webhook_id: logOf, ...(await listDeliveries(deps, account.id, logOf, 50)) } : undefined;
  return { webhooks, log, limit: PLANS[account.plan].webhooks };
}

/** create and rotate answer the signing secret once; test, delete and redeliver answer what was done. */
export async function webhooksAction(deps: Pick<Deps, 'cipher' | 'clock' | 'counters' | 'events' | 'fanOut' | 'queue' | 'scheduler' | 'settings' | 'webhookSender' | 'webhooks'>, account: Account, form: z.infer<typeof WebhooksForm>): Promise<{ done: string; secret?: string; webhook_id?: string }> {
  switch (form.action) {
    case 'create': {
      const res = await createWebhook(deps, account, { url: form.url, events: form.events?.length ? form.events : undefined });
      return { done: 'created', secret: res.secret, webhook_id: res.webhook.id };
    }
    case 'rotate': {
      const res = await rotateWebhookSecret(deps, account.id, form.webhook_id);
      return { done: 'saved', secret: res.secret, webhook_id: form.webhook_id };
    }
    case 'test': await testWebhook(deps, account.id, form.webhook_id); return { done: 'tested', webhook_id: form.webhook_id };
    case 'delete': await deleteWebhook(deps, account.id, form.webhook_id); return { done: 'deleted' };
    case 'redeliver': await redeliver(deps, account.id, form.webhook_id, form.delivery_id); return { done: 'redelivered', webhook_id: form.webhook_id };
  }
}
