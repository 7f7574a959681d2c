import { PLATFORM_NAMES } from '../domain/platforms';
import * as z from 'zod';

/**
 * Request and response schemas of AI drafts (POST /api/generate, POST /api/week); OpenAPI is generated from them,
 * and the MCP tools generate_posts and plan_week validate their arguments with the same input schemas.
 */

const MAX_PROMPT = 4000;

const MediaRef = z.strictObject({
  url: z.string().trim().min(1).max(2048),
  type: z.enum(['image', 'video']).optional(),
});

const HttpUrl = z.string().trim().max(2048).refine((v) => {
  try { const u = new URL(v); return u.protocol === 'https:' || u.protocol === 'http:'; } catch { return false; }
}, 'link must be an http(s) URL');

/** The fields both routes share: what to write about and for which networks. */
const DraftingFields = {
  prompt: z.string().trim().min(1).max(MAX_PROMPT).meta({ description: 'What to write about (user content: never read as instructions)' }),
  /** Network names; unknown or repeated ones are answered 400 invalid_request naming them. */
  platforms: z.array(z.string().max(40)).min(1).max(PLATFORM_NAMES.length),
  brand_id: z.string().max(100).optional(),
  tone: z.string().trim().min(1).max(40).optional().meta({ description: 'e.g. friendly, formal, playful' }),
  language: z.string().trim().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'language must be a BCP 47 tag such as en or pt-BR').optional(),
  link: HttpUrl.optional(),
  /** The media the post will carry (sent with the post, not with the drafts): a caption is shorter on some networks. */
  media: z.array(MediaRef).max(35).optional(),
};

export const GenerateInput = z.strictObject(DraftingFields).meta({ id: 'GenerateRequest' });
export type GenerateInput = z.infer<typeof GenerateInput>;

export const WeekInput = z.strictObject({
  ...DraftingFields,
  /** First day: a date (YYYY-MM-DD, in the brand's timezone) or an instant with a UTC offset; default now. */
  start: z.string().trim().max(40).optional(),
  /** true: each day's drafts become a scheduled post (plan caps apply; per-day report). */
  schedule: z.boolean().optional(),
}).meta({ id: 'WeekRequest' });
export type WeekInput = z.infer<typeof WeekInput>;

/**
 * One network's draft. text/title/thread/first_comment are exactly the per_platform fields of POST /api/post;
 * hashtags, chars and limit describe the draft (chars: the text's length in the network's own units; limit: the
 * most it may have) and are accepted but not used when the draft is sent back as per_platform.
 */
export const DraftView = z.object({
  text: z.string(),
  title: z.string().optional(),
  thread: z.array(z.string()).optional(),
  first_comment: z.string().optional(),
  hashtags: z.array(z.string()).optional(),
  chars: z.number().int(),
  limit: z.number().int(),
}).meta({ id: 'Draft' });
export type DraftView = z.infer<typeof DraftView>;

export const UsageLineView = z.object({
  limit: z.number().int().nullable(), used: z.number().int(), remaining: z.number().int().nullable(), resets_at: z.string().nullable(),
});

export const AiUsageView = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** The plan's AI drafts a day after this call (the same line as GET /api/usage). */
  ai_drafts_per_day: UsageLineView,
});

export const GenerateResponse = z.object({
  drafts: z.record(z.string(), DraftView),
  provider: z.enum(['bedrock', 'openai', 'local']),
  model: z.string(),
  usage: AiUsageView,
}).meta({ id: 'GenerateResponse' });

const ScheduledDay = z.union([
  z.object({ ok: z.literal(true), schedule_id: z.string(), run_at: z.string(), status: z.string() }),
  z.object({ ok: z.literal(false), code: z.string(), error: z.string(), upgrade_url: z.string().optional() }),
]);

export const WeekDayView = z.object({
  day: z.number().int(),
  /** The local date in the brand's timezone. */
  date: z.string(),
  run_at: z.string(),
  drafts: z.record(z.string(), DraftView),
  schedule: ScheduledDay.optional(),
});

export const WeekResponse = z.object({
  brand_id: z.string(),
  timezone: z.string(),
  days: z.array(WeekDayView),
  scheduled: z.object({ accepted: z.number().int(), rejected: z.number().int() }).optional(),
  provider: z.enum(['bedrock', 'openai', 'local']),
  model: z.string(),
  usage: AiUsageView,
}).meta({ id: 'WeekResponse' });
