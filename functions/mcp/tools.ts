import * as z from 'zod';
import type { Deps } from '../../shared/app/deps';
import type { McpCaller } from '../../shared/app/mcp-oauth/authenticate';
import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as p from '../../shared/api/publish-schemas';
import * as sch from '../../shared/api/schedule-schemas';
import { RecurringRequestSchema, ScheduleRequestSchema } from '../../shared/app/schedule/request';
import * as m from '../../shared/api/media-schemas';
import * as o from '../../shared/api/oauth-schemas';
import * as ai from '../../shared/api/ai-schemas';
import { accountRoutes } from '../../infra/routes/account';
import { aiDraftsRoutes } from '../../infra/routes/ai-drafts';
import { brandsRoutes } from '../../infra/routes/brands';
import { connectionsRoutes } from '../../infra/routes/connections';
import { mediaRoutes } from '../../infra/routes/media';
import { publishingRoutes } from '../../infra/routes/publishing';
import { schedulingRoutes } from '../../infra/routes/scheduling';
import { PLATFORMS } from '../../shared/domain/platforms';
import { PostRequestSchema, validatePost } from '../../shared/app/publish/request';
import { MAX_BULK_ROWS } from '../../shared/app/schedule/request';
import { publishPost } from '../../shared/app/publish/create-post';
import { listPosts, postStatus } from '../../shared/app/publish/queries';
import { xAddon } from '../../shared/app/publish/x-credits';
import { brandView, createBrand } from '../../shared/app/brands';
import { createConnectLink } from '../../shared/app/connect-link/links';
import { connectionHealth, listConnections } from '../../shared/app/connections';
import { bulkSchedule, createSchedule } from '../../shared/app/schedule/create';
import { cancelSchedule, listSchedules } from '../../shared/app/schedule/manage';
import { createRecurring, deleteRecurring, listRecurring } from '../../shared/app/schedule/recurring';
import { createUploadLink } from '../../shared/app/media/upload-links';
import { usage } from '../../shared/app/usage';
import { generateDrafts, planWeek } from '../../shared/app/ai';

/** The routes the tools mirror, from their areas' files (not the whole table, so the bundle holds no other area's schemas). */
const routes = { ...accountRoutes, ...aiDraftsRoutes, ...brandsRoutes, ...connectionsRoutes, ...mediaRoutes, ...publishingRoutes, ...schedulingRoutes };

/** What a tool runs with: the use-case dependencies and the caller (an API key or an OAuth AI app). */
export interface ToolContext {
  deps: Deps;
  principal: McpCaller;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * One MCP tool: a thin wrapper over the use case its REST route calls. `route` names that REST route: the tool
 * shares its rate limit (the same counter), so an agent cannot go around a REST limit through MCP.
 */
export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  route?: RouteDef;
  /** Calls the use case; its answer (the REST body) must match `output`, which the server checks on every call. */
  run(ctx: ToolContext, input: z.infer<I>): Promise<unknown>;
  /** The one-line text content next to structuredContent. */
  summary(out: z.infer<O>): string;
}

const tool = <I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef => def as unknown as ToolDef;

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Reaches a social network (publishes or checks credentials there). */
const PUBLISH: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const REMOVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const NoInput = z.strictObject({});
const IdInput = (what: string) => z.strictObject({ id: z.string().min(1).max(100).describe(what) });
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * POST /api/post's answer: 200 (one result per network) or 202 held for approval (the same fields plus status and
 * approval_id; the owner decides in the dashboard, never a tool).
 */
const PostToSocialOutput = p.PostResponse.extend({ status: z.literal('pending_approval').optional(), approval_id: z.string().optional() });

/** The post fields of POST /api/post, strict: an unknown field is refused, never ignored. */
const PostInput = PostRequestSchema.strict();

/** The 21 tools of the hosted MCP server (spec §4). No tool approves a post, changes guardrails or reads a secret. */
export const TOOLS: ToolDef[] = [
  tool({
    name: 'list_platforms', title: 'List networks',
    description: 'The 16 networks: what each needs (credentials or OAuth sign-in, media rules) and whether it is available now.',
    input: NoInput, output: s.PlatformsResponse, annotations: READ,
    run: async () => ({ platforms: PLATFORMS }),
    summary: (out) => `${plural(out.platforms.length, 'network')}.`,
  }),
  tool({
    name: 'list_brands', title: 'List brands',
    description: 'The brands of this account (each has its own connections, timezone and posting slots).',
    input: NoInput, output: s.BrandsResponse, annotations: READ, route: routes.getBrands,
    run: async ({ deps, principal }) => ({ brands: (await deps.brands.list(principal.account.id)).map(brandView) }),
    summary: (out) => `${plural(out.brands.length, 'brand')}: ${out.brands.map((b) => `${b.name} (${b.id})`).join(', ')}.`,
  }),
  tool({
    name: 'create_brand', title: 'Create a brand',
    description: 'Create a brand (the plan limits how many). Connect networks to it with create_connect_link.',
    input: s.CreateBrandBody, output: s.CreateBrandResponse, annotations: CREATE, route: routes.postBrands,
    run: async ({ deps, principal }, input) => ({ ok: true as const, brand: brandView(await createBrand(deps, principal.account, input.name)) }),
    summary: (out) => `Created brand ${out.brand.name} (${out.brand.id}).`,
  }),
  tool({
    name: 'create_connect_link', title: 'Create a connect link',
    description: 'A hosted page (1 hour, no login) where a person connects networks into one brand: give it to the person who owns the social accounts.',
    input: o.ConnectLinkBody, output: o.ConnectLinkResponse, annotations: CREATE, route: routes.postConnectLink,
    run: async ({ deps, principal }, input) => createConnectLink(deps, principal.account, input),
    summary: (out) => `Connect link for brand ${out.brand_id}, valid 1 hour: ${out.url}`,
  }),
  tool({
    name: 'list_connections', title: 'List connections',
    description: 'Which networks are connected, per brand, each with its health: healthy, expiring (with the date), reauth_required or network_down (never the credentials).',
    input: NoInput, output: p.ConnectionsResponse, annotations: READ, route: routes.getConnections,
    run: async ({ deps, principal }) => listConnections(deps, principal.account.id),
    summary: (out) => {
      const attention = out.connections.filter((c) => c.health && c.health.state !== 'healthy');
      return `${plural(out.connections.length, 'connection')} in ${plural(out.brands.length, 'brand')}` +
        (attention.length ? `; needing attention: ${attention.map((c) => `${c.platform} ${c.handle} (${c.health!.state}${c.health!.expires_at ? ` ${c.health!.expires_at}` : ''})`).join(', ')}.` : '; all healthy.');
    },
  }),
  tool({
    name: 'check_connection', title: 'Check a connection',
    description: "Check a network's stored credentials against the network again (is the connection still working?).",
    input: z.strictObject({ ...p.PlatformParams.shape, ...p.BrandQuery.shape }), output: p.HealthResponse,
    annotations: { ...READ, openWorldHint: true }, route: routes.getConnectHealth,
    run: async ({ deps, principal }, input) => connectionHealth(deps, principal.account, input.platform, input.brand_id),
    summary: (out) => `${out.platform}: ${out.ok ? 'working' : 'not working'}${out.health ? ` (${out.health.state})` : ''}.`,
  }),
  tool({
    name: 'generate_posts', title: 'Draft posts with AI',
    description: 'One prompt, one draft per network that fits that network (nothing is published): send a draft back as per_platform.<network> of post_to_social. Uses one of the plan\'s AI drafts a day.',
    input: ai.GenerateInput, output: ai.GenerateResponse, annotations: { ...CREATE, openWorldHint: true }, route: routes.postGenerate,
    run: async ({ deps, principal }, input) => generateDrafts(deps, principal.account, input),
    summary: (out) => `${plural(Object.keys(out.drafts).length, 'draft')} (${Object.keys(out.drafts).join(', ')}); ${out.usage.ai_drafts_per_day.remaining ?? 'unlimited'} AI drafts left today.`,
  }),
  tool({
    name: 'plan_week', title: 'Plan a week with AI',
    description: "Seven days of drafts in the brand's posting slots; with schedule: true each day becomes a scheduled post (plan caps apply).",
    input: ai.WeekInput, output: ai.WeekResponse, annotations: { ...CREATE, openWorldHint: true }, route: routes.postWeek,
    run: async ({ deps, principal }, input) => planWeek(deps, principal.account, input, principal.actor),
    summary: (out) => `${plural(out.days.length, 'day')} planned for brand ${out.brand_id}${out.scheduled ? `, ${out.scheduled.accepted} scheduled, ${out.scheduled.rejected} refused` : ''}.`,
  }),
  tool({
    name: 'post_to_social', title: 'Publish a post',
    description: 'Publish now to one network (platform) or several (platforms): one result per network. Send an idempotency_key so that a retry never posts twice. A post an approval rule holds answers status pending_approval: the account owner decides, no tool can.',
    input: PostInput, output: PostToSocialOutput, annotations: PUBLISH, route: routes.postPost,
    run: async ({ deps, principal }, input) => publishPost(deps, principal.account, validatePost(input), { source: 'api', wait: true, actor: principal.actor }),
    summary: (out) => (out.status === 'pending_approval' ? `Post ${out.post_id} is held for the account owner's approval (${out.approval_id}); nothing was sent yet. ` : '') + `Post ${out.post_id}: ${out.results.map((r) => `${r.platform} ${r.ok ? (r.status ?? 'ok') : (r.code ?? 'failed')}`).join(', ')}.`,
  }),
  tool({
    name: 'schedule_post', title: 'Schedule a post',
    description: 'Schedule a post: the post_to_social fields plus run_at (ISO 8601 with offset, or "next_slot" for the brand\'s next free slot).',
    input: ScheduleRequestSchema.strict(), output: sch.ScheduleCreated, annotations: CREATE, route: routes.postSchedule,
    run: async ({ deps, principal }, input) => createSchedule(deps, principal.account, input, principal.actor),
    summary: (out) => `Scheduled ${out.schedule_id} for ${out.run_at} on ${out.platforms.join(', ')}.`,
  }),
  tool({
    name: 'bulk_schedule', title: 'Schedule many posts',
    description: `Schedule up to ${MAX_BULK_ROWS} posts: each row has the schedule_post fields (run_at optional: next free slot). A report of accepted and rejected rows.`,
    input: z.strictObject({ posts: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_BULK_ROWS) }),
    output: sch.BulkResponse, annotations: CREATE, route: routes.postBulk,
    run: async ({ deps, principal }, input) => bulkSchedule(deps, principal.account, { posts: input.posts }, principal.actor),
    summary: (out) => `${out.accepted} of ${out.total} rows scheduled, ${out.rejected} rejected.`,
  }),
  tool({
    name: 'list_scheduled_posts', title: 'List scheduled posts',
    description: 'Scheduled posts by run_at, filtered by status, brand, date range (from/to) and deferred; paginated with cursor.',
    input: sch.ScheduleListQuery.extend({ deferred: z.boolean().optional() }).strict(),
    output: sch.SchedulesResponse, annotations: READ, route: routes.getSchedules,
    run: async ({ deps, principal }, input) => listSchedules(deps, principal.account.id, input),
    summary: (out) => `${plural(out.schedules.length, 'scheduled post')}${out.next_cursor ? ' (more with cursor)' : ''}.`,
  }),
  tool({
    name: 'cancel_scheduled_post', title: 'Cancel a scheduled post',
    description: 'Cancel a scheduled post before it runs (refused once it is publishing or ran).',
    input: IdInput('The schedule_id'), output: sch.ScheduleView, annotations: REMOVE, route: routes.deleteSchedule,
    run: async ({ deps, principal }, input) => cancelSchedule(deps, principal.account.id, input.id),
    summary: (out) => `Schedule ${out.schedule_id} is ${out.status}.`,
  }),
  tool({
    name: 'create_recurring_post', title: 'Create a recurring post',
    description: 'A post that repeats: the post_to_social fields plus cron (5 fields), timezone, optional starts_at and ends_at.',
    input: RecurringRequestSchema.strict(), output: sch.RecurringView, annotations: CREATE, route: routes.postRecurring,
    run: async ({ deps, principal }, input) => createRecurring(deps, principal.account, input, principal.actor),
    summary: (out) => `Recurring ${out.recurring_id} (${out.cron} ${out.timezone}), next run ${out.next_run_at ?? 'none'}.`,
  }),
  tool({
    name: 'list_recurring_posts', title: 'List recurring posts',
    description: 'Recurring posts, newest first, with their next run.',
    input: NoInput, output: sch.RecurringListResponse, annotations: READ, route: routes.getRecurringList,
    run: async ({ deps, principal }) => listRecurring(deps, principal.account.id),
    summary: (out) => `${plural(out.recurring.length, 'recurring post')}.`,
  }),
  tool({
    name: 'delete_recurring_post', title: 'Stop a recurring post',
    description: 'Stop a recurring post (runs already made stay).',
    input: IdInput('The recurring_id'), output: sch.RecurringView, annotations: REMOVE, route: routes.deleteRecurring,
    run: async ({ deps, principal }, input) => deleteRecurring(deps, principal.account.id, input.id),
    summary: (out) => `Recurring ${out.recurring_id} is ${out.status}.`,
  }),
  tool({
    name: 'get_post_status', title: 'Get a post status',
    description: "A network's status for a post, by our post id (pst_…) or the network's own post id.",
    input: p.StatusQuery.strict(), output: p.StatusResponse, annotations: READ, route: routes.getPostStatus,
    run: async ({ deps, principal }, input) => postStatus(deps, principal.account.id, input.platform, input.id),
    summary: (out) => `${out.platform}: ${out.status} (post ${out.post_id}).`,
  }),
  tool({
    name: 'list_posts', title: 'List posts',
    description: 'Post history with each network result, newest first (limit, then before=next_before for older).',
    input: p.PostsQuery.strict(), output: p.PostsResponse, annotations: READ, route: routes.getPosts,
    run: async ({ deps, principal }, input) => listPosts(deps, principal.account.id, input.limit, input.before),
    summary: (out) => `${plural(out.posts.length, 'post')}${out.next_before ? ' (more with before)' : ''}.`,
  }),
  tool({
    name: 'create_media_upload_link', title: 'Create a media upload link',
    description: 'A hosted upload page (works once, for 1 hour) for a person to upload a photo or video; its media URL then goes in a post.',
    input: m.UploadLinkBody, output: m.UploadLinkResponse, annotations: CREATE, route: routes.postMediaUploadLink,
    run: async ({ deps, principal }, input) => createUploadLink(deps, principal.account.id, input),
    summary: (out) => `Upload page, valid 1 hour: ${out.url}`,
  }),
  tool({
    name: 'get_usage', title: 'Get usage',
    description: 'For each plan limit: limit, used, remaining and when it resets.',
    input: NoInput, output: s.UsageResponse, annotations: READ, route: routes.getUsage,
    run: async ({ deps, principal }) => usage(deps, principal.account),
    summary: (out) => `Plan ${out.plan}.`,
  }),
  tool({
    name: 'get_x_credits', title: 'Get X credits',
    description: "The X add-on: its credit rules, the plan's credits, used, left and the reset date.",
    input: NoInput, output: o.XAddonResponse, annotations: READ, route: routes.getX,
    run: async ({ deps, principal }) => xAddon(deps, principal.account),
    summary: (out) => `X credits: ${out.left} of ${out.credits} left, resets ${out.resets_at}.`,
  }),
];

export const toolByName = new Map(TOOLS.map((t) => [t.name, t]));
