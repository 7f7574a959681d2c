import type { Connection, PublishContext, PublishContextStore } from '../../ports/publishing';
import type { Account, Brand } from '../../ports/store';
import type { Guardrails } from '../../ports/guardrails';
import type { ApprovalRule } from '../../ports/approvals';
import { queryAll, type TableRef } from './client';
import { keys, strip } from './keys';
import { combineGuardrails } from '../../domain/guardrails';

/**
 * The publish path's read of the account: the account item (ACCOUNT), approval rules (APRRULE#), brands (BRAND#),
 * connections (CON#) and guardrails (GUARD#) sort next to each other in the account's partition, so one strongly
 * consistent query of the sort-key range ACCOUNT … GUARD# reads them all. The other items in that range (AI apps
 * APP#/APPCLIENT#, white label BRANDING#, other actors' guardrails) are read too and left out: DynamoDB filters on
 * key attributes only in the key condition. Plan changes (PLANCHG#) and webhooks (WEBHOOK#) sort after the range.
 */
export class DynamoPublishContextStore implements PublishContextStore {
  constructor(private readonly t: TableRef) {}

  async load(accountId: string, actor?: { kind: 'key' | 'app'; id: string; above?: string[] }): Promise<PublishContext> {
    const items = await queryAll(this.t, {
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':from': keys.account(accountId).sk, ':to': `${keys.guardrailsPrefix}\uffff` },
    });
    const of = (prefix: string) => items.filter((i) => String(i.sk).startsWith(prefix));
    // as AccountStore.get answers it: without the brand places still pending (brand_pending)
    const { brand_pending: _pending, ...account } = items.find((i) => i.sk === keys.account(accountId).sk) ?? {};
    return {
      ...(account.pk ? { account: strip<Account>(account) } : {}),
      approvalRules: of(keys.approvalRulePrefix).map((i) => strip<ApprovalRule>(i)),
      brands: of(keys.brandPrefix).map((i) => strip<Brand>(i)),
      connections: of(keys.connectionPrefix).map((i) => strip<Connection>(i)),
      ...(actor ? { guardrails: guardrailsOf(items, accountId, actor) } : {}),
    };
  }
}

/** The actor's guardrails in force: its own item and those of the keys above it, combined (never wider). */
function guardrailsOf(items: Array<Record<string, unknown>>, accountId: string, actor: { kind: 'key' | 'app'; id: string; above?: string[] }) {
  const item = (kind: string, id: string) => {
    const sk = keys.guardrails(accountId, kind, id).sk;
    const found = items.find((i) => i.sk === sk);
    return found ? strip<Guardrails>(found) : undefined;
  };
  const above = (actor.above ?? []).map((id) => item('key', id)).filter((g): g is Guardrails => !!g);
  return combineGuardrails(actor, item(actor.kind, actor.id), above);
}
