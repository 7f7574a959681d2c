import { GuardrailsView } from './guardrail-schemas';
import * as z from 'zod';
import { PLAN_NAMES } from '../domain/plans';
import { KEY_SCOPES } from '../domain/api-key';
import { isSafeDisplayText, UNSAFE_DISPLAY_TEXT } from '../domain/display-text';

/** A one-line display field (brand and key names): trimmed, 1–100 characters, no control or bidi-override characters. */
export const DisplayName = z.string().trim().min(1).max(100).refine((v) => isSafeDisplayText(v), UNSAFE_DISPLAY_TEXT);

/** Request and response schemas of the account side of the API (OpenAPI is generated from these). */

export const ErrorBody = z.object({ error: z.string(), code: z.string() }).catchall(z.unknown()).meta({ id: 'Error' });

export const PlatformSchema = z.object({
  name: z.string(), audit_required: z.boolean(), oauth: z.boolean(), fields: z.array(z.string()),
  optional_fields: z.array(z.string()).optional(), kind: z.literal('article').optional(), available: z.boolean(),
  needs: z.enum(['text', 'photo_or_video', 'video']), max_media: z.number().int(),
  read_back: z.boolean().meta({ description: 'Whether a post whose worker stopped after sending can be looked for on the network (read back) and settled as published; false: such a post stays unknown' }),
  addon: z.object({ kind: z.literal('x_credits'), paid_plans_only: z.boolean(), rule: z.string(), details: z.string() }).optional(),
  unavailable_reason: z.enum(['not_configured', 'not_offered']).optional().meta({ description: 'Why available is false: this server has no app registration at the network, or the network is not offered' }),
  reason: z.string().optional().meta({ description: 'The same in plain words' }),
  delete: z.boolean().meta({ description: 'A published post can be taken back on this network (REST: DELETE /api/posts/{id}; MCP: delete_post)' }),
  edit: z.boolean().meta({ description: 'A published post can be edited on this network (REST: PATCH /api/posts/{id}; MCP: edit_post)' }),
}).meta({ id: 'Platform' });

export const PlatformsResponse = z.object({ platforms: z.array(PlatformSchema) });
export const PlansResponse = z.object({ plans: z.array(z.record(z.string(), z.unknown())), yearly_discount_percent: z.number(), refund_days: z.number() });

export const SignupBody = z.object({ email: z.email().max(254) }).strict();
export const SignupResponse = z.object({ email: z.string(), pending_verification: z.literal(true), emailed: z.literal(true) });
export const ConfirmQuery = z.object({ token: z.string().min(10).max(200) });
export const ConfirmBody = z.object({ token: z.string().min(10).max(200) }).strict();
export const ConfirmResponse = z.object({ api_key: z.string(), key_id: z.string(), account: z.object({ id: z.string(), email: z.string(), plan: z.string() }) });

export const KeyView = z.object({
  id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(),
  expires_at: z.string().nullable(), revoked_at: z.string().nullable(),
  scopes: z.array(z.enum(KEY_SCOPES)).meta({ description: 'publish: post and schedule; read: GET routes; manage: keys, webhooks, brands, connections' }),
}).meta({ id: 'ApiKey' });
export const CreateKeyBody = z.object({
  name: DisplayName.optional(),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
  /** Default: the scopes of the key making the request; never wider than them (403 key_scope). */
  scopes: z.array(z.enum(KEY_SCOPES)).min(1).max(3).optional(),
}).strict();
export const CreateKeyResponse = KeyView.extend({ api_key: z.string() });
export const KeysResponse = z.object({ keys: z.array(KeyView) });
export const IdParams = z.object({ id: z.string().max(100) });
export const RevokeResponse = z.object({ id: z.string(), revoked: z.literal(true), revoked_at: z.string() });

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
export const BrandView = z.object({ id: z.string(), name: z.string(), timezone: z.string(), slots: z.array(z.string()), created_at: z.string() }).meta({ id: 'Brand' });
export const CreateBrandBody = z.object({ name: DisplayName }).strict();
export const CreateBrandResponse = z.object({ ok: z.literal(true), brand: BrandView });
export const BrandsResponse = z.object({ brands: z.array(BrandView) });
export const PatchBrandBody = z.object({
  name: DisplayName.optional(),
  timezone: z.string().refine(isTimeZone, 'not an IANA time zone (e.g. Europe/Berlin)').optional(),
  slots: z.array(z.string().regex(TIME_OF_DAY, 'slots are HH:MM, 24-hour')).min(1).max(48).optional(),
}).strict();

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const UsageLine = z.object({
  limit: z.number().nullable().meta({ description: 'null: no limit on this plan' }),
  used: z.number().nullable().meta({ description: 'null only for networks_per_post (a rule of each post, not a running count)' }),
  remaining: z.number().nullable().meta({ description: 'null when there is no limit, or for networks_per_post' }),
  resets_at: z.string().nullable().meta({ description: 'End of the current window; null for standing counts (brands, webhooks, scheduled_at_a_time) and networks_per_post' }),
}).meta({ id: 'UsageLine' });
export const UsageResponse = z.object({
  plan: z.string(),
  posts_per_month: UsageLine.extend({ fair_use: z.boolean() }),
  ai_drafts_per_day: UsageLine, brands: UsageLine, networks_per_post: UsageLine, scheduled_at_a_time: UsageLine,
  webhooks: UsageLine, x_credits: UsageLine, api_requests_per_minute_per_key: UsageLine,
}).catchall(z.unknown()).meta({ id: 'Usage' });
export const MeResponse = z.object({
  account: z.object({ id: z.string(), email: z.string(), verified: z.boolean(), created_at: z.string() }),
  plan: z.string(), key_id: z.string(), usage: UsageResponse,
  brands: z.array(z.object({ id: z.string(), name: z.string() })),
  connections: z.object({ total: z.number(), by_platform: z.record(z.string(), z.number()) }),
  redirect_origins: z.array(z.string()),
  guardrails: GuardrailsView,
});
export { UsageLine };

export const DevPlanBody = z.object({ email: z.email(), plan: z.enum(PLAN_NAMES) }).strict();
export const OutboxResponse = z.array(z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string(), links: z.array(z.string()), sent_at: z.string() }));
