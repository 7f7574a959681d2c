import * as z from 'zod';
import { WEBHOOK_EVENTS } from '../domain/webhooks';

/** Request and response schemas of signed webhooks (OpenAPI is generated from these). */

export const CreateWebhookBody = z.object({
  url: z.string().trim().min(1).max(2048),
  /** Event names; unknown ones are answered 400 unknown_event by the use case (naming them). */
  events: z.array(z.string().max(100)).max(20).optional(),
}).strict().meta({ description: `events: any of ${WEBHOOK_EVENTS.join(', ')}` });

export const WebhookView = z.object({
  id: z.string(), url: z.string(), events: z.array(z.string()), created_at: z.string(), rotated_at: z.string().nullable(),
}).meta({ id: 'WebhookEndpoint' });

export const CreateWebhookResponse = z.object({ webhook: WebhookView, secret: z.string() });
export const WebhooksResponse = z.object({ webhooks: z.array(WebhookView) });
export const DeleteWebhookResponse = z.object({ id: z.string(), deleted: z.literal(true) });
export const RotateWebhookResponse = z.object({ webhook: WebhookView, secret: z.string(), previous_secret_expires_at: z.string() });
export const TestWebhookResponse = z.object({ event_id: z.string(), delivery_id: z.string(), status: z.literal('queued') });

export const WebhookParams = z.object({ id: z.string().max(100) });
export const DeliveryParams = z.object({ id: z.string().max(100), delivery_id: z.string().max(100) });
export const DeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z.string().max(200).optional(),
});

export const DeliveryAttemptView = z.object({
  delivery_id: z.string(), event_id: z.string(), type: z.string(), attempt: z.number().int(),
  status_code: z.number().int().nullable(), ok: z.boolean(), duration_ms: z.number(), error: z.string().nullable(),
  next_attempt_at: z.string().nullable(), created_at: z.string(), response_excerpt: z.string().optional(),
}).meta({ id: 'WebhookDeliveryAttempt' });
export const DeliveriesResponse = z.object({ deliveries: z.array(DeliveryAttemptView), next_before: z.string().nullable() });
export const RedeliverResponse = z.object({ delivery_id: z.string(), event_id: z.string(), attempt: z.number().int(), status: z.literal('queued') });
