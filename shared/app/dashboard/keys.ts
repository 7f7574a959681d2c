import type { z } from 'zod';
import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { KeysForm } from '../../api/dashboard-schemas';
import { PLANS } from '../../domain/plans';
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys';
import { setGuardrails } from '../guardrails/guardrails';
import { guardrailsInputOf } from '../guardrails/form-input';
import { BadRequestError } from '../../domain/errors';

/** The API keys page: every key (prefixes only) with its guardrails, and the brands the guardrails can name. */
export async function keysPage(deps: Pick<Deps, 'keys' | 'guardrails' | 'brands'>, account: Account) {
  const [keys, guardrails, brands] = await Promise.all([listApiKeys(deps, account.id), deps.guardrails.list(account.id), deps.brands.list(account.id)]);
  return {
    keys: keys.map((k) => ({ ...k, guardrails: guardrails.find((g) => g.kind === 'key' && g.id === k.id) })),
    brands, canGuard: PLANS[account.plan].guardrails,
  };
}

/** One API keys page action: create (the secret is answered once), revoke, or set a key's guardrails. */
export async function keysAction(deps: Pick<Deps, 'apps' | 'brands' | 'clock' | 'counters' | 'guardrails' | 'keys' | 'settings'>, account: Account, form: z.infer<typeof KeysForm>) {
  switch (form.action) {
    case 'create': {
      if (form.scopes_offered && !form.scopes?.length) throw new BadRequestError('Tick at least one scope for the key', { code: 'scopes_required' });
      const key = await createApiKey(deps, account.id, { name: form.name || undefined, expires_in_days: form.expires_in_days, ...(form.scopes?.length ? { scopes: form.scopes } : {}) });
      return { done: 'created', created: key };
    }
    case 'revoke': {
      await revokeApiKey(deps, account.id, form.key_id);
      return { done: 'revoked' };
    }
    case 'guardrails': {
      await setGuardrails(deps, account, { kind: 'key', id: form.key_id }, guardrailsInputOf(form));
      return { done: 'guardrails' };
    }
  }
}

