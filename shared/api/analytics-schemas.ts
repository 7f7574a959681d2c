import * as z from 'zod';
import { PLATFORM_NAMES } from '../domain/platforms';
import { METRIC_NAMES, SYNC_STATUSES } from '../domain/analytics';

/** Request and response schemas of post analytics (OpenAPI is generated from these). */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD').refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'not a calendar date');
export const PostAnalyticsQuery = z.strictObject({
  refresh: z.enum(['0', '1', 'true', 'false']).optional().meta({ description: '1: fetch the figures from the networks now (at most once per 15 minutes per post and network; otherwise the stored figures with fetched_at and refresh_after)' }),
});

export const AnalyticsQuery = z.strictObject({
  from: isoDate.optional().meta({ description: 'First day (UTC, inclusive); default 29 days before `to`' }),
  to: isoDate.optional().meta({ description: 'Last day (UTC, inclusive); default today' }),
  brand_id: z.string().max(100).optional(),
  platform: z.enum(PLATFORM_NAMES).optional(),
  top: z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().min(0).max(100).optional()).meta({ description: 'How many top posts (default 10)' }),
});

const figure = z.number().nullable();
export const MetricsView = z.object(Object.fromEntries(METRIC_NAMES.map((m) => [m, figure])) as Record<(typeof METRIC_NAMES)[number], typeof figure>)
  .meta({ id: 'Metrics', description: "Normalised figures: impressions (views), reach, likes, comments, shares (reposts, retweets, reblogs), quotes, saves, clicks, video_views; null where the network does not offer the figure (never a made-up 0)" });
const Source = z.record(z.string(), z.string()).meta({ description: "Our figure name → the network's own metric name it was read from" });

export const NetworkAnalyticsView = z.object({
  platform: z.enum(PLATFORM_NAMES),
  status: z.enum(SYNC_STATUSES).meta({ description: 'pending (not fetched yet), synced, failed (previous figures kept; see error), reauth_required, not_offered (the network has no post analytics), gone (deleted on the network)' }),
  metrics: MetricsView, source: Source,
  fetched_at: z.string().nullable(), next_sync_at: z.string().nullable().meta({ description: 'When the sweep fetches again: hourly for 48 hours after publishing, then daily until 30 days; null: never' }),
  refresh_after: z.string().nullable().meta({ description: 'When refresh=1 may fetch this network again; null: now' }),
  refreshed: z.boolean(), network_post_id: z.string(), url: z.string().nullable(), published_at: z.string(), error: z.string().optional(),
}).meta({ id: 'NetworkAnalytics' });
export const PostAnalyticsResponse = z.object({ post_id: z.string(), brand_id: z.string(), networks: z.array(NetworkAnalyticsView) }).meta({ id: 'PostAnalytics' });

const Group = { posts: z.number().int(), metrics: MetricsView };
export const AnalyticsResponse = z.object({
  from: z.string(), to: z.string(), brand_id: z.string().nullable(), platform: z.string().nullable(),
  posts: z.number().int(), publications: z.number().int().meta({ description: 'Post × network pairs' }),
  totals: MetricsView,
  by_network: z.array(z.object({ platform: z.string(), ...Group })),
  by_brand: z.array(z.object({ brand_id: z.string(), brand_name: z.string().nullable(), ...Group })),
  daily: z.array(z.object({ date: z.string(), platform: z.string(), brand_id: z.string(), ...Group })).meta({ description: 'By the UTC day the posts were published, per network and brand; figures are the posts\' latest (cumulative)' }),
  top_posts: z.array(z.object({
    post_id: z.string(), brand_id: z.string(), published_at: z.string(), platforms: z.array(z.string()),
    engagement: z.number().meta({ description: 'likes + comments + shares + quotes + saves' }), metrics: MetricsView, urls: z.record(z.string(), z.string()),
  })),
}).meta({ id: 'AnalyticsSummary' });

export const AnalyticsExportResponse = z.object({
  url: z.string().meta({ description: 'CSV download link (15 minutes): one row per post and network' }),
  expires_in: z.number().int(), bytes: z.number().int(), rows: z.number().int(),
});
