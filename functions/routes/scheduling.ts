import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as sch from '../../shared/api/schedule-schemas';
import { RecurringRequestSchema, SchedulePatchSchema, ScheduleRequestSchema } from '../../shared/app/schedule/request';
import { E, std } from './errors';

/** The Scheduling routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const schedulingRoutes = {
  postSchedule: {
    id: 'post-schedule', method: 'POST', path: '/api/schedule', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Schedule a post: the post fields plus run_at (ISO 8601 with offset, or next_slot); everything checkable is checked now',
    body: ScheduleRequestSchema,
    responses: {
      200: { description: 'Scheduled', schema: sch.ScheduleCreated },
      400: E('invalid_request, invalid_run_at, not_connected, media_required, bad_media, no_free_slot, scheduled_limit_reached'),
      403: E('key_scope, brand_not_allowed'), 404: E('brand_not_found'), 409: E('ambiguous_brand, duplicate_post'), ...std,
    },
  },
  getSchedules: {
    id: 'get-schedules', method: 'GET', path: '/api/schedule', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'Scheduled posts by run_at, filtered by status, brand, date range (from/to) and deferred; paginated with cursor',
    query: sch.ScheduleListQuery,
    responses: { 200: { description: 'Schedules', schema: sch.SchedulesResponse }, 400: E('invalid_request'), ...std },
  },
  getSchedule: {
    id: 'get-schedule', method: 'GET', path: '/api/schedule/{id}', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'One scheduled post, with each network result once it ran',
    params: s.IdParams,
    responses: { 200: { description: 'Schedule', schema: sch.ScheduleDetail }, 404: E('not_found'), ...std },
  },
  patchSchedule: {
    id: 'patch-schedule', method: 'PATCH', path: '/api/schedule/{id}', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Change a scheduled post: a new run_at and/or post fields (409 once it is publishing or ran)',
    params: s.IdParams, body: SchedulePatchSchema,
    responses: {
      200: { description: 'Changed', schema: sch.ScheduleView }, 400: E('invalid_request, invalid_run_at, not_connected, no_free_slot'),
      404: E('not_found'), 409: E('schedule_publishing, schedule_not_pending, schedule_deferred'), ...std,
    },
  },
  deleteSchedule: {
    id: 'delete-schedule', method: 'DELETE', path: '/api/schedule/{id}', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'scheduler'],
    summary: 'Cancel a scheduled post (409 once it is publishing or ran)',
    params: s.IdParams,
    responses: { 200: { description: 'Canceled', schema: sch.ScheduleView }, 404: E('not_found'), 409: E('schedule_publishing, schedule_not_pending, schedule_deferred'), ...std },
  },
  postBulk: {
    id: 'post-bulk', method: 'POST', path: '/api/bulk', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'Schedule up to 500 posts: JSON {posts: [...]} or text/csv; a report of accepted and rejected rows',
    body: sch.BulkBody, extraContentTypes: ['text/csv'], timeoutSeconds: 29, memoryMb: 1024,
    responses: { 200: { description: 'Per-row report', schema: sch.BulkResponse }, 400: E('too_many_rows, invalid_csv'), ...std },
  },
  postRecurring: {
    id: 'post-recurring', method: 'POST', path: '/api/recurring', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'scheduler'],
    summary: 'A recurring post: the post fields plus cron (5 fields), timezone, optional starts_at and ends_at',
    body: RecurringRequestSchema,
    responses: {
      200: { description: 'Created', schema: sch.RecurringView },
      400: E('invalid_cron, invalid_timezone, invalid_run_at, not_connected, scheduled_limit_reached'), 403: E('key_scope, brand_not_allowed'), 404: E('brand_not_found'), 409: E('ambiguous_brand'), ...std,
    },
  },
  getRecurringList: {
    id: 'get-recurring-list', method: 'GET', path: '/api/recurring', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'Recurring schedules, newest first, with their next run',
    responses: { 200: { description: 'Recurring schedules', schema: sch.RecurringListResponse }, ...std },
  },
  getRecurring: {
    id: 'get-recurring', method: 'GET', path: '/api/recurring/{id}', tag: 'Scheduling', auth: 'key', scope: 'read', grants: ['table'],
    summary: 'One recurring schedule with its next run (each run is listed by GET /api/schedule with its recurring_id)',
    params: s.IdParams,
    responses: { 200: { description: 'Recurring schedule', schema: sch.RecurringView }, 404: E('not_found'), ...std },
  },
  deleteRecurring: {
    id: 'delete-recurring', method: 'DELETE', path: '/api/recurring/{id}', tag: 'Scheduling', auth: 'key', scope: 'publish', grants: ['table', 'scheduler'],
    summary: 'Stop a recurring schedule (runs already made stay)',
    params: s.IdParams,
    responses: { 200: { description: 'Canceled', schema: sch.RecurringView }, 404: E('not_found'), 409: E('recurring_not_active'), ...std },
  },
} as const satisfies Record<string, RouteDef>;
