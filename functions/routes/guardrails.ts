import type { RouteDef } from '../../shared/http/route';
import * as g from '../../shared/api/guardrail-schemas';
import { E } from './errors';

/** The Guardrails routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const guardrailsRoutes = {
  putGuardrails: {
    id: 'put-guardrails', method: 'PUT', path: '/api/guardrails/{kind}/{id}', tag: 'Guardrails', auth: 'session', grants: ['table'],
    summary: 'Set the limits of an API key or AI app (monthly cap, allowed networks and brands, always needs approval): dashboard session and CSRF only',
    params: g.GuardrailParams, body: g.GuardrailsBody,
    responses: {
      200: { description: 'The guardrails now in force', schema: g.GuardrailsResponse }, 400: E('Invalid input'),
      402: E('plan_feature: guardrails start on the starter plan'), 403: E('session_required (an API key), csrf_failed'), 404: E('key_not_found, app_not_found, brand_not_found'),
    },
  },
} as const satisfies Record<string, RouteDef>;
