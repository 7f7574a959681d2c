import type { RouteDef } from '../../shared/http/route';
import * as wh from '../../shared/api/webhook-schemas';
import { E, std } from './errors';

/** The Webhooks routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const webhooksRoutes = {
  postWebhooks: {
    id: 'post-webhooks', method: 'POST', path: '/api/webhooks', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt'],
    summary: 'Register a webhook endpoint (https, public address); the signing secret is shown only here; 20 a day per account',
    rateLimit: { limit: 20, windowSeconds: 86_400 }, body: wh.CreateWebhookBody,
    responses: {
      201: { description: 'Registered, with its secret (shown once)', schema: wh.CreateWebhookResponse },
      400: E('invalid_webhook_url, unknown_event, webhook_limit_reached (with upgrade_url)'), ...std,
    },
  },
  getWebhooks: {
    id: 'get-webhooks', method: 'GET', path: '/api/webhooks', tag: 'Webhooks', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'List webhook endpoints (never the secrets)',
    responses: { 200: { description: 'Endpoints', schema: wh.WebhooksResponse }, ...std },
  },
  deleteWebhook: {
    id: 'delete-webhook', method: 'DELETE', path: '/api/webhooks/{id}', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table'],
    summary: 'Remove a webhook endpoint (pending deliveries to it stop)',
    params: wh.WebhookParams,
    responses: { 200: { description: 'Deleted', schema: wh.DeleteWebhookResponse }, 404: E('not_found'), ...std },
  },
  postWebhookTest: {
    id: 'post-webhook-test', method: 'POST', path: '/api/webhooks/{id}/test', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'webhookQueue'],
    summary: 'Send a webhook.test event to this endpoint (30 an hour per account)',
    rateLimit: { limit: 30, windowSeconds: 3600 }, params: wh.WebhookParams,
    responses: { 202: { description: 'Queued; the try shows in the delivery log', schema: wh.TestWebhookResponse }, 404: E('not_found'), ...std },
  },
  postWebhookRotate: {
    id: 'post-webhook-rotate', method: 'POST', path: '/api/webhooks/{id}/rotate', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'kmsEncrypt'],
    summary: 'New signing secret (shown once); for 24 h deliveries carry v1 signatures with both the old and the new secret',
    rateLimit: { limit: 20, windowSeconds: 86_400 }, params: wh.WebhookParams,
    responses: { 200: { description: 'The new secret', schema: wh.RotateWebhookResponse }, 404: E('not_found'), ...std },
  },
  getWebhookDeliveries: {
    id: 'get-webhook-deliveries', method: 'GET', path: '/api/webhooks/{id}/deliveries', tag: 'Webhooks', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'The delivery log of an endpoint: every try, newest first, paginated (kept 30 days)',
    params: wh.WebhookParams, query: wh.DeliveriesQuery,
    responses: { 200: { description: 'Tries', schema: wh.DeliveriesResponse }, 400: E('invalid_cursor'), 404: E('not_found'), ...std },
  },
  postWebhookRedeliver: {
    id: 'post-webhook-redeliver', method: 'POST', path: '/api/webhooks/{id}/deliveries/{delivery_id}/redeliver', tag: 'Webhooks', auth: 'key', scope: 'manage', grants: ['table', 'webhookQueue'],
    summary: 'Send a delivery again now, with the same Service-Delivery id (60 an hour per account)',
    rateLimit: { limit: 60, windowSeconds: 3600 }, params: wh.DeliveryParams,
    responses: { 202: { description: 'Queued', schema: wh.RedeliverResponse }, 404: E('not_found'), 409: E('conflict'), ...std },
  },
} as const satisfies Record<string, RouteDef>;
