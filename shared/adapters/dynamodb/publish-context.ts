import type { Connection, PublishContext, PublishContextStore } from '../../ports/publishing';
import type { Guardrails } from '../../ports/guardrails';
import { queryAll, type TableRef } from './client';
import { keys } from './keys';
import { combineGuardrails } from '../../domain/guardrails';
import { accountEntity } from './accounts';
import { approvalRuleEntity } from './approvals';
import { brandEntity } from './brands';
import { connectionEntity } from './connections';
import { guardrailsEntity } from './guardrails';

/**
 * The publish path's read of the account: the account item (ACCOUNT), approval rules (APRRULE#), brands (BRAND#),
 * connections (CON#) and guardrails (GUARD#) sort next to each other in the account's partition, so one strongly
 * consistent query of the sort-key range ACCOUNT … GUARD# reads them all. The other items in that range (AI apps
 * APP#/APPCLIENT#, white label BRANDING#, other actors' guardrails) are read too and left out: DynamoDB filters on
 * key attributes only in the key condition. Plan changes (PLANCHG#) and webhooks (WEBHOOK#) sort after the range.
 * Each item reads as its entity reads it (the account without its pending brand places, as AccountStore.get).
 */
export class DynamoPublishContextStore implements PublishContextStore {
  private readonly entities;
  constructor(private readonly t: TableRef) {
    this.entities = { account: accountEntity.on(t), rule: approvalRuleEntity.on(t), brand: brandEntity.on(t), connection: connectionEntity.on(t), guardrails: guardrailsEntity.on(t) };
  }

  async load(accountId: string, actor?: { kind: 'key' | 'app'; id: string; above?: string[] }): Promise<PublishContext> {
    const items = await queryAll(this.t, {
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':from': keys.account(accountId).sk, ':to': `${keys.guardrailsPrefix}\uffff` },
    });
    const of = (prefix: string) => items.filter((i) => String(i.sk).startsWith(prefix));
    const account = items.find((i) => i.sk === keys.account(accountId).sk);
    return {
      ...(account ? { account: this.entities.account.fromItem(account) } : {}),
      approvalRules: of(keys.approvalRulePrefix).map((i) => this.entities.rule.fromItem(i)),
      brands: of(keys.brandPrefix).map((i) => this.entities.brand.fromItem(i)),
      connections: of(keys.connectionPrefix).map((i): Connection => this.entities.connection.fromItem(i)),
      ...(actor ? { guardrails: this.guardrailsOf(items, accountId, actor) } : {}),
    };
  }

  /** The actor's guardrails in force: its own item and those of the keys above it, combined (never wider). */
  private guardrailsOf(items: Array<Record<string, unknown>>, accountId: string, actor: { kind: 'key' | 'app'; id: string; above?: string[] }) {
    const item = (kind: string, id: string) => {
      const sk = keys.guardrails(accountId, kind, id).sk;
      const found = items.find((i) => i.sk === sk);
      return found ? this.entities.guardrails.fromItem(found) : undefined;
    };
    const above = (actor.above ?? []).map((id) => item('key', id)).filter((g): g is Guardrails => !!g);
    return combineGuardrails(actor, item(actor.kind, actor.id), above);
  }
}
