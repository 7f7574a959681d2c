import * as z from 'zod';
import { PostRequestSchema } from '../publish/request';

/** run_at: ISO 8601 with a UTC offset, or the literal next_slot (checked by parseRunAt, with its own code). */
export const RunAt = z.string().trim().min(1).max(64);

/** POST /api/schedule: the post request fields (spec §2.2) plus run_at. */
export const ScheduleRequestSchema = PostRequestSchema.extend({ run_at: RunAt }).meta({ id: 'ScheduleRequest' });
export type ScheduleRequest = z.infer<typeof ScheduleRequestSchema>;

/** One row of POST /api/bulk: like POST /api/schedule, but a missing run_at means next_slot. */
export const BulkRowSchema = PostRequestSchema.extend({ run_at: RunAt.optional() }).meta({ id: 'BulkRow' });
export type BulkRow = z.infer<typeof BulkRowSchema>;

/** PATCH /api/schedule/{id}: a new run_at and/or post fields (top-level fields replace the stored ones). */
export const SchedulePatchSchema = PostRequestSchema.partial().extend({ run_at: RunAt.optional() }).meta({ id: 'SchedulePatch' });
export type SchedulePatch = z.infer<typeof SchedulePatchSchema>;

/** POST /api/recurring: the post fields plus a 5-field cron, its timezone and an optional window. */
export const RecurringRequestSchema = PostRequestSchema.extend({
  cron: z.string().trim().min(1).max(200),
  timezone: z.string().trim().min(1).max(64).default('UTC'),
  starts_at: RunAt.optional(),
  ends_at: RunAt.optional(),
}).meta({ id: 'RecurringRequest' });
export type RecurringRequest = z.infer<typeof RecurringRequestSchema>;

/** The most rows one POST /api/bulk takes (decisions.md). */
export const MAX_BULK_ROWS = 500;
