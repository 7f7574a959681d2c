import * as z from 'zod';
import { isPlatformName, PLATFORM_NAMES, type PlatformName } from '../domain/platforms';

/** Request and response schemas of deleting and editing published posts (DELETE / PATCH /api/posts/{id}). */

const platformName = z.string().refine(isPlatformName, { message: 'unknown network' }).transform((p) => p as PlatformName);

/** `?platforms=mastodon,telegram`: the networks to delete on (default: every network of the post). */
export const DeletePostQuery = z.object({
  platforms: z.string().max(400).optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const names = v.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = names.filter((n) => !isPlatformName(n));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown network: ${unknown.join(', ')}` });
      return names as PlatformName[];
    })
    .meta({ description: 'Comma-separated networks of the post (default: all of them)' }),
});

const EditDraft = z.object({ text: z.string().max(100_000).optional(), title: z.string().max(500).optional() }).strict();

export const EditPostBody = z.object({
  text: z.string().max(100_000).optional(),
  title: z.string().max(500).optional(),
  per_platform: z.record(z.string(), EditDraft).optional()
    .refine((r) => !r || Object.keys(r).every(isPlatformName), { message: 'per_platform keys must be network names' })
    .transform((r) => r as Partial<Record<PlatformName, z.infer<typeof EditDraft>>> | undefined),
  platforms: z.array(platformName).max(PLATFORM_NAMES.length).optional(),
}).strict();

export const ChangeResultSchema = z.object({
  platform: z.string(), ok: z.boolean(), status: z.enum(['deleted', 'edited', 'failed', 'unknown']),
  code: z.string().optional(), error: z.string().optional(), what: z.string().optional(), fix: z.string().optional(),
  retry_after: z.number().optional(), url: z.string().optional(),
}).meta({ id: 'ChangeResult' });

export const ChangeResponse = z.object({
  post_id: z.string(),
  change_id: z.string().nullable().meta({ description: 'The change sent to the networks; null when every result was decided without a network call' }),
  results: z.array(ChangeResultSchema),
}).meta({ id: 'PostChange' });
