import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import { E } from './errors';

/** The Local routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const localRoutes = {
  devOutbox: {
    id: 'dev-outbox', method: 'GET', path: '/dev/outbox', tag: 'Local', auth: 'open', localOnly: true, grants: [],
    summary: 'Local mode only: emails sent, newest first',
    responses: { 200: { description: 'Emails', schema: s.OutboxResponse } },
  },
  devPlan: {
    id: 'dev-plan', method: 'POST', path: '/dev/plan', tag: 'Local', auth: 'open', localOnly: true, grants: ['table'],
    summary: "Local mode only: set an account's plan without billing",
    body: s.DevPlanBody,
    responses: { 200: { description: 'Plan set' }, 404: E('No account with that email') },
  },
} as const satisfies Record<string, RouteDef>;
