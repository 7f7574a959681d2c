import * as z from 'zod';
import { PLATFORM_NAMES } from '../domain/platforms';

/** PUT /api/guardrails/{kind}/{id}. A missing limit means "no limit"; the body replaces the old one. */
export const GuardrailParams = z.strictObject({ kind: z.enum(['key', 'app']), id: z.string().min(1).max(100) });
export const GuardrailsBody = z.strictObject({
  monthly_post_cap: z.number().int().min(0).max(1_000_000).nullable().optional(),
  allowed_platforms: z.array(z.enum(PLATFORM_NAMES)).max(PLATFORM_NAMES.length).nullable().optional(),
  allowed_brands: z.array(z.string().min(1).max(100)).max(200).nullable().optional(),
  always_require_approval: z.boolean().optional(),
});
export type GuardrailsInput = z.infer<typeof GuardrailsBody>;

export const GuardrailsView = z.object({
  kind: z.enum(['key', 'app']), id: z.string(),
  monthly_post_cap: z.number().nullable(), allowed_platforms: z.array(z.string()).nullable(), allowed_brands: z.array(z.string()).nullable(),
  always_require_approval: z.boolean(), used_this_month: z.number(), updated_at: z.string().nullable(),
});
export const GuardrailsResponse = z.object({ guardrails: GuardrailsView });
