import * as z from 'zod';
import type { DepsOf } from '../../shared/wiring/declaration';
import type { mcpRoutes } from '../routes/mcp';
import type { McpCaller } from '../../shared/app/mcp-oauth/authenticate';
import { TOOL_ROUTES, type ToolRoute } from './tool-routes';
import * as s from '../../shared/api/schemas';
import * as p from '../../shared/api/publish-schemas';
import * as sch from '../../shared/api/schedule-schemas';
import { RecurringRequestSchema, ScheduleRequestSchema } from '../../shared/app/schedule/request';
import * as m from '../../shared/api/media-schemas';
import * as o from '../../shared/api/oauth-schemas';
import * as ai from '../../shared/api/ai-schemas';
import { listPlatforms } from '../../shared/app/platforms';
import { PostRequestSchema, validatePost } from '../../shared/app/publish/request';
import { MAX_BULK_ROWS } from '../../shared/app/schedule/request';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePublish } from '../../shared/app/validate/validate';
import { ValidateRequestSchema } from '../../shared/app/validate/validate-request';
import { deletePost, editPost } from '../../shared/app/post-changes/request-change';
import * as pc from '../../shared/api/post-change-schemas';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { listPosts, postStatus } from '../../shared/app/publish/queries';
import { xAddon } from '../../shared/app/publish/x-credits';
import { brandView, createBrand } from '../../shared/app/brands';
import { createConnectLink } from '../../shared/app/connect-page';
import { connectionHealth, listConnections } from '../../shared/app/connections';
import { bulkSchedule, createSchedule } from '../../shared/app/schedule/create';
import { cancelSchedule, listSchedules } from '../../shared/app/schedule/manage';
import { createRecurring, deleteRecurring, listRecurring } from '../../shared/app/schedule/recurring';
import { createUploadLink } from '../../shared/app/media/upload-links';
import { listMedia, uploadLinkMedia } from '../../shared/app/media/library';
import { explainCode, KNOWN_CODES, withMcpFix } from './errors';
import { UserAction } from './ask-user';
import { usage } from '../../shared/app/usage';
import { generateDrafts, planWeek } from '../../shared/app/ai';
import * as an from '../../shared/api/analytics-schemas';
import { getPostAnalytics } from '../../shared/app/analytics/post-analytics';

const routes = TOOL_ROUTES;

/** What a tool runs with: the use-case dependencies and the caller (an API key or an OAuth AI app). */
export interface ToolContext {
  /** Only what the MCP function declares (its route's grants and networks): another member does not compile. */
  deps: DepsOf<typeof mcpRoutes.postMcp>;
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
  route?: ToolRoute;
  /**
   * The use case reads the account's publishing context (brands, connections, guardrails, approval rules): the
   * caller's check reads it in the same query as the account (principal.context), as the REST route's does.
   */
  publishing?: true;
  /** Calls the use case; its answer (the REST body) must match `output`, which the server checks on every call. */
  run(ctx: ToolContext, input: z.infer<I>): Promise<unknown>;
  /** The summary line: the first line of the text block, above the JSON (the same object as structuredContent). */
  summary(out: z.infer<O>): string;
  /**
   * What the user must do before the call can do its work (e.g. connect a network), found without doing any of it:
   * a client that can open URLs for its user in a multi round-trip revision is asked first (ask-user.ts).
   */
  precheck?(ctx: ToolContext, input: z.infer<I>): Promise<UserAction | undefined>;
}

const tool = <I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef => def as unknown as ToolDef;

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Reaches a social network (publishes or checks credentials there). */
const PUBLISH: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const REMOVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const NoInput = z.strictObject({});
const IdInput = (what: string) => z.strictObject({ id: z.string().min(1).max(100).describe(what) });
const dashboardUrl = (ctx: ToolContext, path: string) => `${ctx.deps.settings.publicBaseUrl}${path}`;

/** Every connection (of one brand, or all) with its stored health and, when unhealthy, the fix (get_connection_health, social://connections). */
export async function connectionsHealth({ deps, principal }: ToolContext, brandId?: string) {
  const all = await listConnections(deps, principal.account.id);
  const connections = all.brands.filter((b) => !brandId || b.id === brandId).flatMap((b) => b.connections.map((c) => ({
    id: c.id, platform: c.platform, brand_id: b.id, brand_name: b.name, ...(c.handle ? { handle: c.handle } : {}), status: c.status,
    ...(c.health ? { health: c.health } : {}),
    ok: c.status === 'active', ...(c.status === 'active' ? {} : { fix: explainCode('reauth_required').fix }),
  })));
  return { healthy: connections.filter((c) => c.ok).length, unhealthy: connections.filter((c) => !c.ok).length, connections };
}

/** Codes of a network result that the account owner must act on: connect (or reconnect) the network. */
const NEEDS_CONNECTING = new Set(['not_connected', 'reauth_required']);

/**
 * What the person behind the agent must do before this post can go out, with the link that does it: a fresh connect
 * link for the post's brand (one network at a time on the page) for the networks answered not_connected /
 * reauth_required, or the dashboard approvals page for a held post.
 */
async function userActionOf(ctx: ToolContext, out: { brand_id: string; results: Array<{ platform: string; code?: string }>; status?: string }): Promise<UserAction | undefined> {
  if (out.status === 'pending_approval') {
    return { kind: 'approve', url: dashboardUrl(ctx, '/dashboard/approvals'), message: "The post waits for the account owner's approval in the dashboard: nothing was sent yet." };
  }
  const platforms = out.results.filter((r) => r.code && NEEDS_CONNECTING.has(r.code)).map((r) => r.platform);
  if (!platforms.length) return undefined;
  // a connect link needs the manage scope (create_connect_link's); a key without it points to the dashboard instead
  if (!ctx.principal.scopes.includes('manage')) {
    return { kind: 'connect', url: dashboardUrl(ctx, '/dashboard/connections'), platforms, message: `Ask the account owner to connect ${platforms.join(', ')} in the dashboard; then post again.` };
  }
  const link = await createConnectLink(ctx.deps, ctx.principal.account, { brand_id: out.brand_id, ...(platforms.length === 1 ? { platform: platforms[0] } : {}) });
  return { kind: 'connect', url: link.url, platforms, message: `Ask the account owner to open this page (valid 1 hour) and connect ${platforms.join(', ')}; then post again.` };
}
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * POST /api/post's answer: 200 (one result per network) or 202 held for approval (the same fields plus status and
 * approval_id; the owner decides in the dashboard, never a tool).
 */
const PostToSocialOutput = p.PostResponse.extend({
  status: z.literal('pending_approval').optional(), approval_id: z.string().optional(), user_action: UserAction.optional(),
});

/** The post fields of POST /api/post, strict: an unknown field is refused, never ignored. */
const PostInput = PostRequestSchema.strict();

/**
 * The tools of the hosted MCP server (spec §4). Adding one is one `tool({...})` entry here: name, title, description,
 * input (zod; every property needs a description, see schema-docs.ts), output (zod), annotations, the REST route it
 * mirrors (scope and rate limit), run (the use case) and summary (the first line of the result text). No tool approves a post, changes guardrails or reads a secret. */
export const TOOLS: ToolDef[] = [
  tool({
    name: 'list_platforms', title: 'List networks',
    description: `The ${PLATFORM_NAMES.length} networks: what each needs (credentials or OAuth sign-in, media rules) and whether it is available now, can be read back, deleted or edited.`,
    input: NoInput, output: s.PlatformsResponse, annotations: READ,
    run: async ({ deps }) => ({ platforms: await listPlatforms(deps) }),
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
    run: async ({ deps, principal }, input) => createConnectLink(deps, principal.account, input, principal.actor),
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
    input: PostInput, output: PostToSocialOutput, annotations: PUBLISH, route: routes.postPost, publishing: true,
    run: async (ctx, input) => {
      const out = await publishPost(ctx.deps, ctx.principal.account, validatePost(input, ctx.deps.networkLimits), { source: 'api', wait: true, actor: ctx.principal.actor, context: ctx.principal.context });
      const shown = { ...out, results: out.results.map(withMcpFix) };
      const action = await userActionOf(ctx, shown);
      return action ? { ...shown, user_action: action } : shown;
    },
    summary: (out) => (out.status === 'pending_approval' ? `Post ${out.post_id} is held for the account owner's approval (${out.approval_id}); nothing was sent yet. ` : '')
      + `Post ${out.post_id}: ${out.results.map((r) => `${r.platform} ${r.ok ? (r.status ?? 'ok') : (r.code ?? 'failed')}`).join(', ')}.`
      + (out.user_action ? ` Action needed: ${out.user_action.message} ${out.user_action.url}` : ''),
    // the same checks as validate_post: a network that is not connected is found before anything is sent
    precheck: async (ctx, input) => userActionOf(ctx, await validatePublish(ctx.deps, ctx.principal.account, input, { actor: ctx.principal.actor, context: ctx.principal.context })),
  }),
  tool({
    name: 'validate_post', title: 'Check a post before sending',
    description: 'Dry run of post_to_social (or of schedule_post, with run_at): the same checks the real send runs, per network ok or the code/what/fix it would fail with. Sends nothing, writes nothing, spends no limit. Use it before post_to_social when unsure a text, media or network fits.',
    input: ValidateRequestSchema.strict(), output: p.ValidateResponse, annotations: READ, route: routes.postValidate, publishing: true,
    run: async ({ deps, principal }, input) => {
      const out = await validatePublish(deps, principal.account, input, { actor: principal.actor, context: principal.context });
      return { ...out, results: out.results.map(withMcpFix) };
    },
    summary: (out) => `${out.ok ? 'Would publish' : 'Would not publish everywhere'}: ${out.results.map((r) => `${r.platform} ${r.ok ? 'ok' : (r.code ?? 'failed')}`).join(', ')}${out.pending_approval ? ' (would be held for approval)' : ''}.`,
  }),
  tool({
    name: 'delete_post', title: 'Delete a published post',
    description: 'Take a published post back on its networks (all, or platforms): one result per network, deleted or the code/what/fix (not_supported where the network has no delete, e.g. instagram; see list_platforms). Deleting again answers deleted without a network call.',
    input: z.strictObject({
      id: z.string().min(1).max(100).describe('The post id (pst_…) from post_to_social or list_posts'),
      platforms: z.array(z.enum(PLATFORM_NAMES)).min(1).max(PLATFORM_NAMES.length).optional().describe('Only these networks of the post (default: every network it was sent to)'),
    }),
    output: pc.ChangeResponse, annotations: { ...REMOVE, openWorldHint: true }, route: routes.deletePost, publishing: true,
    run: async ({ deps, principal }, input) => {
      const out = await deletePost(deps, principal.account.id, input.id, { platforms: input.platforms }, { actor: principal.actor, context: principal.context });
      return { ...out, results: out.results.map(withMcpFix) };
    },
    summary: (out) => `Post ${out.post_id}: ${out.results.map((r) => `${r.platform} ${r.ok ? r.status : (r.code ?? 'failed')}`).join(', ')}.`,
  }),
  tool({
    name: 'edit_post', title: 'Edit a published post',
    description: "Change a published post's text (and per-network text / title) where the network allows it (mastodon, telegram, facebook, linkedin, wordpress, devto, hashnode, reddit self posts, discord, youtube): one result per network; not_supported elsewhere (delete_post, then post_to_social again). Each network's content limits are checked first.",
    input: pc.EditPostBody.extend({ id: z.string().min(1).max(100).describe('The post id (pst_…) from post_to_social or list_posts') }).strict(),
    output: pc.ChangeResponse, annotations: { ...PUBLISH, idempotentHint: true }, route: routes.patchPost, publishing: true,
    run: async ({ deps, principal }, input) => {
      const { id, ...edit } = input;
      const out = await editPost(deps, principal.account.id, id, edit, { actor: principal.actor, context: principal.context });
      return { ...out, results: out.results.map(withMcpFix) };
    },
    summary: (out) => `Post ${out.post_id}: ${out.results.map((r) => `${r.platform} ${r.ok ? r.status : (r.code ?? 'failed')}`).join(', ')}.`,
  }),
  tool({
    name: 'schedule_post', title: 'Schedule a post',
    description: 'Schedule a post: the post_to_social fields plus run_at (ISO 8601 with offset, or "next_slot" for the brand\'s next free slot).',
    input: ScheduleRequestSchema.strict(), output: sch.ScheduleCreated, annotations: CREATE, route: routes.postSchedule, publishing: true,
    run: async ({ deps, principal }, input) => createSchedule(deps, principal.account, input, principal.actor, principal.context),
    summary: (out) => `Scheduled ${out.schedule_id} for ${out.run_at} on ${out.platforms.join(', ')}.`,
  }),
  tool({
    name: 'bulk_schedule', title: 'Schedule many posts',
    description: `Schedule up to ${MAX_BULK_ROWS} posts: each row has the schedule_post fields (run_at optional: next free slot). A report of accepted and rejected rows.`,
    input: z.strictObject({ posts: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_BULK_ROWS) }),
    output: sch.BulkResponse, annotations: CREATE, route: routes.postBulk, publishing: true,
    run: async ({ deps, principal }, input) => bulkSchedule(deps, principal.account, { posts: input.posts }, principal.actor, principal.context),
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
    input: IdInput('The schedule_id (sch_…) answered by schedule_post, bulk_schedule or list_scheduled_posts'), output: sch.ScheduleView, annotations: REMOVE, route: routes.deleteSchedule,
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
    input: IdInput('The recurring_id (rec_…) answered by create_recurring_post or list_recurring_posts'), output: sch.RecurringView, annotations: REMOVE, route: routes.deleteRecurring,
    run: async ({ deps, principal }, input) => deleteRecurring(deps, principal.account.id, input.id),
    summary: (out) => `Recurring ${out.recurring_id} is ${out.status}.`,
  }),
  tool({
    name: 'get_post_status', title: 'Get a post status',
    description: "A network's status for a post, by our post id (pst_…) or the network's own post id.",
    input: p.StatusQuery.extend({
      platform: p.StatusQuery.shape.platform.describe('The network of the post (one of its results; list_platforms names them)'),
      id: p.StatusQuery.shape.id.describe("Our post id (pst_… from post_to_social or list_posts) or the network's own post id (results[].id of post_to_social)"),
    }).strict(), output: p.StatusResponse, annotations: READ, route: routes.getPostStatus,
    run: async ({ deps, principal }, input) => postStatus(deps, principal.account.id, input.platform, input.id),
    summary: (out) => `${out.platform}: ${out.status} (post ${out.post_id}).`,
  }),
  tool({
    name: 'get_post_analytics', title: 'Get post analytics',
    description: "A published post's figures per network: impressions, reach, likes, comments, shares, quotes, saves, clicks, video_views (null where the network does not offer one), with fetched_at and each network's own metric names. refresh: true reads the networks now (at most once per 15 minutes per network).",
    input: z.strictObject({
      id: z.string().min(1).max(100).describe('Our post id (pst_…) from post_to_social or list_posts'),
      refresh: z.boolean().optional().describe('Read the figures from the networks now instead of the stored ones (at most once per 15 minutes per network)'),
    }),
    output: an.PostAnalyticsResponse, annotations: { ...READ, idempotentHint: true, openWorldHint: true }, route: routes.getPostAnalytics,
    run: async ({ deps, principal }, input) => getPostAnalytics(deps, principal.account.id, input.id, { refresh: input.refresh === true }),
    summary: (out) => out.networks.length
      ? out.networks.map((n) => `${n.platform}: ${n.status}${n.metrics.likes !== null ? `, ${n.metrics.likes} likes` : ''}${n.metrics.impressions !== null ? `, ${n.metrics.impressions} impressions` : ''}`).join('; ') + '.'
      : `No published network on post ${out.post_id} yet.`,
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
    summary: (out) => `Upload page, valid 1 hour: ${out.url} — give it to the person with the file; then call get_media_upload with token ${out.token} to learn when it arrived and get its media_url.`,
  }),
  tool({
    name: 'get_media_upload', title: 'Get an uploaded file',
    description: 'Whether the file of an upload link has arrived (status open, uploading, uploaded or expired) and, once uploaded, its media_url to put in a post (video_url, photo_url or media[].url). Call it after the person used the page; calling again is harmless.',
    input: z.strictObject({ token: z.string().min(1).max(200).describe('The token answered by create_media_upload_link (the last part of its url)') }),
    output: z.object({
      status: z.enum(['open', 'uploading', 'uploaded', 'expired']), expires_at: z.string(), uploaded_at: z.string().optional(),
      media: m.FinalizeResponse.optional(),
    }),
    annotations: { ...READ, idempotentHint: true }, route: routes.getMediaUploadLink,
    run: async ({ deps, principal }, input) => uploadLinkMedia(deps, principal.account.id, input.token),
    summary: (out) => (out.media ? `The file arrived: ${out.media.kind} ${out.media.content_type}, ${out.media.bytes} bytes; media_url ${out.media.media_url}`
      : out.status === 'expired' ? 'The upload link expired before a file arrived: make a new one with create_media_upload_link.'
        : out.status === 'uploading' ? 'The upload is in progress: call again in a few seconds.' : 'No file yet: the page has not been used; call again later.'),
  }),
  tool({
    name: 'list_media', title: 'List uploaded media',
    description: "The account's uploaded files (kept 30 days), newest first, each with the media_url to put in a post; paginated with before = next_before.",
    input: z.strictObject({
      limit: z.number().int().min(1).max(100).default(20).describe('How many files at most (1-100, default 20)'),
      before: z.string().max(100).optional().describe('next_before of the previous page, for older files'),
    }),
    output: z.object({ media: z.array(m.FinalizeResponse.extend({ id: z.string(), uploaded_at: z.string().optional() })), next_before: z.string().nullable() }),
    annotations: READ, route: routes.getMediaUploadLink,
    run: async ({ deps, principal }, input) => listMedia(deps, principal.account.id, input),
    summary: (out) => `${plural(out.media.length, 'file')}${out.next_before ? ' (more with before)' : ''}.`,
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
  tool({
    name: 'get_connection_health', title: 'Get connection health',
    description: "Every connection of the account (or of one brand) with its health: active, or reauth_required (the network said the sign-in expired); each unhealthy one with how to fix it. Reads the stored state only (no network call): check_connection re-checks one connection against its network.",
    input: z.strictObject({ brand_id: z.string().max(100).optional().describe('Only this brand (an id from list_brands); default every brand') }),
    output: z.object({
      healthy: z.number().int(), unhealthy: z.number().int(),
      connections: z.array(z.object({
        id: z.string(), platform: z.string(), brand_id: z.string(), brand_name: z.string(), handle: z.string().optional(), status: z.string(),
        health: z.object({ state: z.string(), expires_at: z.string().optional() }).passthrough().optional()
          .describe('healthy, expiring (expires_at), reauth_required or network_down, as list_connections shows it'),
        ok: z.boolean(), fix: z.string().optional(),
      })),
    }),
    annotations: READ, route: routes.getConnections,
    run: (ctx, input) => connectionsHealth(ctx, input.brand_id),
    summary: (out) => `${plural(out.healthy, 'healthy connection')}, ${out.unhealthy} needing attention${out.unhealthy ? ` (${out.connections.filter((c) => !c.ok).map((c) => `${c.platform} in ${c.brand_name}`).join(', ')})` : ''}.`,
  }),
  tool({
    name: 'explain_error', title: 'Explain an error code',
    description: 'What an error or result code means and how to fix it (naming the tool to use), e.g. not_connected, text_too_long, rate_limited. Every code this server answers is known.',
    input: z.strictObject({ code: z.string().min(1).max(80).describe(`A code from a failed call or a network result, e.g. not_connected. Known: ${KNOWN_CODES.join(', ')}`) }),
    output: z.object({ code: z.string(), known: z.boolean(), what: z.string(), fix: z.string(), doc: z.string() }),
    annotations: READ,
    run: async (_ctx, input) => explainCode(input.code),
    summary: (out) => `${out.code}: ${out.what} Fix: ${out.fix}`,
  }),
];

export const toolByName = new Map(TOOLS.map((t) => [t.name, t]));
