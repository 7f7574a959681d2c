import type { GuardrailStore, Guardrails } from '../../ports/guardrails';
import type { TableRef } from './client';
import { entity, type Bound } from './entity';
import { keys } from './keys';

/** One actor's guardrails (API key or AI app) under the account's partition (GUARD#<kind>#<id>). */
export const guardrailsEntity = entity({
  key: keys.guardrails,
  keyOf: (g: Guardrails) => keys.guardrails(g.account_id, g.kind, g.id),
});

/** Guardrails as one item per actor under the account's partition (GUARD#<kind>#<id>). */
export class DynamoGuardrailStore implements GuardrailStore {
  private readonly items: Bound<typeof guardrailsEntity>;
  constructor(t: TableRef) { this.items = guardrailsEntity.on(t); }

  get(accountId: string, kind: Guardrails['kind'], id: string) {
    return this.items.get(accountId, kind, id);
  }

  put(g: Guardrails) {
    return this.items.put(g);
  }

  list(accountId: string) {
    return this.items.query({ pk: keys.account(accountId).pk, beginsWith: keys.guardrailsPrefix });
  }
}
