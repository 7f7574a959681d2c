import * as z from 'zod';
import { SCHEDULE_STATUSES } from '../ports/schedules';
import { NetworkResultSchema } from './publish-schemas';

/**
 * Response schemas of scheduling: scheduled, bulk and recurring posts (OpenAPI is generated from these). The request
 * bodies are the use cases' own schemas (shared/app/schedule/request.ts), as for POST /api/post.
 */

export const ScheduleCreated = z.object({
  schedule_id: z.string(), run_at: z.string(), status: z.literal('scheduled'), brand_id: z.string(), platforms: z.array(z.string()),
  next_slot: z.boolean().optional(),
}).meta({ id: 'ScheduleCreated' });

export const ScheduleView = z.object({
  schedule_id: z.string(), status: z.enum(SCHEDULE_STATUSES), run_at: z.string(), brand_id: z.string(), platforms: z.array(z.string()),
  deferred: z.boolean(), next_slot: z.boolean(), recurring_id: z.string().optional(), occurrence: z.string().optional(),
  post_id: z.string().nullable(), text: z.string().nullable(), title: z.string().nullable(),
  code: z.string().optional(), error: z.string().optional(),
  created_at: z.string(), updated_at: z.string(), canceled_at: z.string().optional(),
}).meta({ id: 'Schedule' });

export const ScheduleDetail = ScheduleView.extend({
  request: z.record(z.string(), z.unknown()).nullable(),
  results: z.array(NetworkResultSchema),
}).meta({ id: 'ScheduleDetail' });

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
export const ScheduleListQuery = z.object({
  status: z.enum(SCHEDULE_STATUSES).optional(),
  brand_id: z.string().max(100).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  deferred: bool.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});
export const SchedulesResponse = z.object({ schedules: z.array(ScheduleView), next_cursor: z.string().nullable() });

/** JSON form of POST /api/bulk (the CSV form is text/csv with a header row). Rows are validated one by one. */
export const BulkBody = z.object({ posts: z.array(z.unknown()).min(1) }).strict().meta({ id: 'BulkRequest' });
export const BulkResponse = z.object({
  total: z.number().int(), accepted: z.number().int(), rejected: z.number().int(),
  scheduled: z.array(ScheduleCreated.extend({ row: z.number().int() })),
  errors: z.array(z.object({ row: z.number().int(), code: z.string(), error: z.string() }).catchall(z.unknown())),
}).meta({ id: 'BulkResponse' });

export const RecurringView = z.object({
  recurring_id: z.string(), status: z.enum(['active', 'canceled', 'ended']), cron: z.string(), timezone: z.string(),
  starts_at: z.string().nullable(), ends_at: z.string().nullable(), next_run_at: z.string().nullable(), last_run_at: z.string().nullable(),
  brand_id: z.string(), platforms: z.array(z.string()), text: z.string().nullable(), created_at: z.string(), updated_at: z.string(),
}).meta({ id: 'Recurring' });
export const RecurringListResponse = z.object({ recurring: z.array(RecurringView) });
