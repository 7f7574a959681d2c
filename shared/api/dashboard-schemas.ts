import * as z from 'zod';
import { PLATFORM_NAMES } from '../domain/platforms';
import { DisplayName } from './schemas';
import { KEY_SCOPES } from '../domain/api-key';

/** Query and form shapes of the dashboard pages. Forms arrive url-encoded; `csrf` is checked by the middleware. */
export const SignInQuery = z.strictObject({ return: z.string().max(500).optional() });
export const SignInForm = z.strictObject({ email: z.email().max(254), return: z.string().max(500).optional() });
export const SignInLinkQuery = z.strictObject({ token: z.string().min(1).max(200) });
export const SignInLinkForm = z.strictObject({ token: z.string().min(1).max(200) });
export const PlanQuery = z.strictObject({
  plan: z.string().max(20).optional(),
  // Billing: where Stripe's checkout returns (success_url / cancel_url).
  checkout: z.enum(['success', 'canceled']).optional(), session_id: z.string().max(200).optional(),
});
export const EmptyQuery = z.strictObject({});
/** After a form post, the page says what happened (`done`) or what went wrong (`error`, a code). */
export const FlashQuery = z.strictObject({ done: z.string().max(40).optional(), error: z.string().max(60).optional() });

const blank = <T extends z.ZodType>(t: T) => z.preprocess((v) => (v === '' ? undefined : v), t.optional());
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
/** Posts page and CSV export filters (empty form fields mean "any"). */
export const ActivityQuery = z.strictObject({
  brand: blank(z.string().max(100)),
  platform: blank(z.enum(PLATFORM_NAMES)),
  status: blank(z.enum(['published', 'failed', 'unknown', 'held', 'scheduled', 'processing', 'deleted'])),
  source: blank(z.enum(['api', 'schedule'])),
  from: blank(isoDate),
  to: blank(isoDate),
  before: blank(z.string().max(40)),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;
/** Overview: the charts' range in days (7, 30 or 90; default 30). */
export const OverviewQuery = z.strictObject({ days: blank(z.enum(['7', '30', '90'])) });
/** Calendar: brand, week or month, a day inside the week or month shown; `done`/`error` after a move. */
export const CalendarQuery = z.strictObject({
  brand: blank(z.string().max(100)), view: blank(z.enum(['week', 'month'])), date: blank(isoDate),
  done: blank(z.enum(['moved'])), error: blank(z.string().regex(/^[a-z_]{1,60}$/)),
});
/** The calendar's move form: a free slot (an instant) or a time on the brand's clock, and the view to go back to. */
export const CalendarMoveForm = z.strictObject({
  schedule_id: z.string().min(1).max(100), slot: blank(z.string().max(64)), at: blank(z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'a date and time as YYYY-MM-DDTHH:mm')),
  brand: blank(z.string().max(100)), view: blank(z.enum(['week', 'month'])), date: blank(isoDate),
});

const optInt = (min: number, max: number) => z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(min).max(max).optional());
const checkbox = z.enum(['on']).optional();
/** API keys page actions (one form per action; `action` says which). */
export const KeysForm = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('create'), name: blank(DisplayName), expires_in_days: optInt(1, 3650),
    // the form's scope boxes; `scopes_offered` says the boxes were there, so none ticked is refused, not "all"
    scopes: z.array(z.enum(KEY_SCOPES)).optional(), scopes_offered: z.literal('1').optional(),
  }),
  z.strictObject({ action: z.literal('revoke'), key_id: z.string().min(1).max(100) }),
  z.strictObject({
    action: z.literal('guardrails'), key_id: z.string().min(1).max(100), monthly_post_cap: optInt(0, 1_000_000),
    limit_platforms: checkbox, allowed_platforms: z.array(z.enum(PLATFORM_NAMES)).optional(),
    limit_brands: checkbox, allowed_brands: z.array(z.string().max(100)).optional(), always_require_approval: checkbox,
  }),
]);
export const KEYS_FORM_LISTS = ['allowed_platforms', 'allowed_brands', 'scopes'] as const;
/** The guardrails fields of a key or an AI app (the same form on both pages). */
export const GuardrailsFields = {
  monthly_post_cap: optInt(0, 1_000_000),
  limit_platforms: checkbox, allowed_platforms: z.array(z.enum(PLATFORM_NAMES)).optional(),
  limit_brands: checkbox, allowed_brands: z.array(z.string().max(100)).optional(), always_require_approval: checkbox,
};
/** AI apps page: an app's guardrails. */
export const AppGuardrailsForm = z.strictObject(GuardrailsFields);
export const GUARDRAILS_FORM_LISTS = ['allowed_platforms', 'allowed_brands'] as const;

const id = z.string().min(1).max(100);
/** Brands page actions. Slots are one text field: HH:MM times separated by commas or spaces. */
export const BrandsForm = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('create'), name: DisplayName }),
  z.strictObject({ action: z.literal('update'), brand_id: id, name: DisplayName, timezone: z.string().min(1).max(64), slots: z.string().max(400) }),
]);
/** Connections page actions. */
export const ConnectionsForm = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('check'), brand_id: id, platform: z.enum(PLATFORM_NAMES) }),
  z.strictObject({ action: z.literal('link'), brand_id: id, platform: blank(z.enum(PLATFORM_NAMES)) }),
  z.strictObject({ action: z.literal('disconnect'), connection_id: id }),
]);
/** Webhooks page actions. */
export const WebhooksForm = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('create'), url: z.string().min(1).max(2000), events: z.array(z.string().max(60)).optional() }),
  z.strictObject({ action: z.literal('test'), webhook_id: id }),
  z.strictObject({ action: z.literal('rotate'), webhook_id: id }),
  z.strictObject({ action: z.literal('delete'), webhook_id: id }),
  z.strictObject({ action: z.literal('redeliver'), webhook_id: id, delivery_id: id }),
]);
export const WebhooksQuery = z.strictObject({ done: z.string().max(40).optional(), error: z.string().max(60).optional(), log: z.string().max(100).optional() });
/** Branding (white label) of the account or one brand. */
export const BrandingForm = z.strictObject({
  scope: id,
  display_name: DisplayName.max(80),
  // http only for this deployment's own media and logo URLs (the local runtime's base URL); the use case checks
  logo_url: blank(z.url({ protocol: /^https?$/, error: 'the logo URL must start with https://' }).max(2000)),
  accent: blank(z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')),
  support_email: blank(z.email().max(254)),
});
/** GET /branding/{file}: `<account>-<hash>.<ext>` of a stored logo. */
export const BrandingLogoParams = z.object({ file: z.string().max(200) });
/** Compose page: the brand whose connected networks are offered. */
export const ComposeQuery = z.strictObject({ brand: blank(z.string().max(100)) });
/**
 * Compose page buttons (`action`): check, publish, schedule, approval, upload_link. The post fields are those of
 * POST /api/post; `run_at` is a datetime-local value read in the brand's time zone.
 */
export const ComposeForm = z.strictObject({
  action: z.enum(['check', 'publish', 'schedule', 'approval', 'upload_link']),
  brand_id: id,
  platforms: z.array(z.enum(PLATFORM_NAMES)).max(PLATFORM_NAMES.length).optional(),
  text: z.string().max(100_000).optional(),
  title: blank(z.string().max(500)),
  media: z.array(z.string().min(1).max(2048)).max(20).optional(),
  media_url: blank(z.string().trim().min(1).max(2048)),
  upload_token: blank(z.string().max(100)),
  run_at: blank(z.string().max(40)),
  next_slot: checkbox,
});
export const COMPOSE_FORM_LISTS = ['platforms', 'media'] as const;
