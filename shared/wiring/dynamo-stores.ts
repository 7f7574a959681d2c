/**
 * The table's adapters in one module, so the container loads them (and the DynamoDB client) only in functions whose
 * declaration wires the table (shared/container.ts, `SPA_WIRE_TABLE`).
 */
export { documentClient } from '../adapters/dynamodb/client';
export { DynamoAccountStore } from '../adapters/dynamodb/accounts';
export { DynamoKeyStore } from '../adapters/dynamodb/api-keys';
export { DynamoBrandStore } from '../adapters/dynamodb/brands';
export { DynamoTokenStore } from '../adapters/dynamodb/tokens';
export { DynamoCounterStore } from '../adapters/dynamodb/counters';
export { DynamoConnectionStore } from '../adapters/dynamodb/connections';
export { DynamoPostStore } from '../adapters/dynamodb/posts';
export { DynamoLockStore } from '../adapters/dynamodb/locks';
export { DynamoPostChangeStore } from '../adapters/dynamodb/post-changes';
export { DynamoAnalyticsStore } from '../adapters/dynamodb/analytics';
export { DynamoPaceStore } from '../adapters/dynamodb/pace';
export { DynamoEventSink } from '../adapters/dynamodb/events';
export { DynamoWebhookStore } from '../adapters/dynamodb/webhooks';
export { DynamoScheduleStore } from '../adapters/dynamodb/schedules';
export { DynamoRecurringStore } from '../adapters/dynamodb/recurring';
export { DynamoSlotStore } from '../adapters/dynamodb/slots';
export { DynamoMediaStore } from '../adapters/dynamodb/media';
export { DynamoMcpOAuthStore } from '../adapters/dynamodb/mcp-oauth';
export { DynamoBillingStore } from '../adapters/dynamodb/billing';
export { DynamoSessionStore } from '../adapters/dynamodb/sessions';
export { DynamoGuardrailStore } from '../adapters/dynamodb/guardrails';
export { DynamoApprovalStore } from '../adapters/dynamodb/approvals';
export { DynamoBrandingStore } from '../adapters/dynamodb/branding';
export { DynamoPublishContextStore } from '../adapters/dynamodb/publish-context';
export { DynamoDaySummaryStore } from '../adapters/dynamodb/day-summaries';
export { McpAppRegistry } from '../adapters/mcp-app-registry';
export { PlanLifecycleAccounts } from '../app/billing/plan-state';
