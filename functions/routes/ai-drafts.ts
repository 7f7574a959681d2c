import type { RouteDef } from '../../shared/http/route';
import * as ai from '../../shared/api/ai-schemas';
import { E, std } from './errors';

/** The AI drafts routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const aiDraftsRoutes = {
  postGenerate: {
    id: 'post-generate', method: 'POST', path: '/api/generate', tag: 'AI drafts', auth: 'key', scope: 'publish', grants: ['table', 'bedrock'],
    summary: "One prompt, one draft per network, each fitting the network (thread where it has them); pass a draft verbatim as per_platform. 8 a minute per account, plus the plan's AI drafts a day",
    body: ai.GenerateInput, timeoutSeconds: 29,
    responses: {
      200: { description: 'The drafts, the provider and model, and the usage', schema: ai.GenerateResponse },
      400: E('invalid_request (unknown or repeated networks)'), 404: E('brand_not_found'),
      401: std[401], 429: E('rate_limited (Retry-After), or ai_drafts_limit_reached (with upgrade_url)'),
      503: E('ai_unavailable: the provider failed, timed out or throttled (Retry-After); nothing was spent'),
    },
  },
  postWeek: {
    id: 'post-week', method: 'POST', path: '/api/week', tag: 'AI drafts', auth: 'key', scope: 'publish', grants: ['table', 'kms', 'scheduler', 'bedrock'],
    summary: "Seven days of drafts on the brand's posting slots, each with its run_at; schedule: true creates them as scheduled posts (per-day report). 3 an hour per account; counts one AI draft",
    body: ai.WeekInput, timeoutSeconds: 29, memoryMb: 1024,
    responses: {
      200: { description: 'The days with their drafts (and the scheduling report)', schema: ai.WeekResponse },
      400: E('invalid_request, invalid_start, no_free_slot'), 404: E('brand_not_found'), 409: E('ambiguous_brand'),
      401: std[401], 429: E('rate_limited (Retry-After), or ai_drafts_limit_reached (with upgrade_url)'),
      503: E('ai_unavailable (Retry-After); nothing was spent'),
    },
  },
} as const satisfies Record<string, RouteDef>;
