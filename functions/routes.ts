import type { RouteDef } from '../shared/http/route';
import { catalogRoutes } from './routes/catalog';
import { accountRoutes } from './routes/account';
import { apiKeysRoutes } from './routes/api-keys';
import { brandsRoutes } from './routes/brands';
import { connectionsRoutes } from './routes/connections';
import { publishingRoutes } from './routes/publishing';
import { mediaRoutes } from './routes/media';
import { webhooksRoutes } from './routes/webhooks';
import { schedulingRoutes } from './routes/scheduling';
import { localRoutes } from './routes/local';
import { billingRoutes } from './routes/billing';
import { dashboardRoutes } from './routes/dashboard';
import { guardrailsRoutes } from './routes/guardrails';
import { approvalsRoutes } from './routes/approvals';
import { mcpRoutes } from './routes/mcp';
import { aiDraftsRoutes } from './routes/ai-drafts';
import { postLifecycleRoutes } from './routes/post-lifecycle';
import { analyticsRoutes } from './routes/analytics';

/**
 * THE route table: the CDK API stack, the local HTTP server and the OpenAPI document are all derived from it.
 * Adding an endpoint is one entry in its area's file under functions/routes/ (listed here) plus functions/http/<id>.ts;
 * a handler imports its area's file, never this index, so its bundle holds only its area's schemas. The order below
 * is the deployed order (it decides each function's nested stack): append, never reorder.
 */
export const routes = {
  getPlatforms: catalogRoutes.getPlatforms,
  getPlans: catalogRoutes.getPlans,
  getOpenapi: catalogRoutes.getOpenapi,
  postSignup: accountRoutes.postSignup,
  getSignupConfirm: accountRoutes.getSignupConfirm,
  getMe: accountRoutes.getMe,
  getUsage: accountRoutes.getUsage,
  postKeys: apiKeysRoutes.postKeys,
  getKeys: apiKeysRoutes.getKeys,
  deleteKey: apiKeysRoutes.deleteKey,
  postBrands: brandsRoutes.postBrands,
  getBrands: brandsRoutes.getBrands,
  patchBrand: brandsRoutes.patchBrand,
  postConnect: connectionsRoutes.postConnect,
  getConnections: connectionsRoutes.getConnections,
  deleteConnection: connectionsRoutes.deleteConnection,
  getConnectHealth: connectionsRoutes.getConnectHealth,
  postPost: publishingRoutes.postPost,
  getPostStatus: publishingRoutes.getPostStatus,
  getPosts: publishingRoutes.getPosts,
  getPost: publishingRoutes.getPost,
  postMediaUploadUrl: mediaRoutes.postMediaUploadUrl,
  getMediaFinalize: mediaRoutes.getMediaFinalize,
  postMediaUploadLink: mediaRoutes.postMediaUploadLink,
  getMediaUploadLink: mediaRoutes.getMediaUploadLink,
  getMediaUploadPage: mediaRoutes.getMediaUploadPage,
  postMediaUploadLinkUrl: mediaRoutes.postMediaUploadLinkUrl,
  postMediaUploadLinkComplete: mediaRoutes.postMediaUploadLinkComplete,
  getMediaFile: mediaRoutes.getMediaFile,
  headMediaFile: mediaRoutes.headMediaFile,
  postWebhooks: webhooksRoutes.postWebhooks,
  getWebhooks: webhooksRoutes.getWebhooks,
  deleteWebhook: webhooksRoutes.deleteWebhook,
  postWebhookTest: webhooksRoutes.postWebhookTest,
  postWebhookRotate: webhooksRoutes.postWebhookRotate,
  getWebhookDeliveries: webhooksRoutes.getWebhookDeliveries,
  postWebhookRedeliver: webhooksRoutes.postWebhookRedeliver,
  postSchedule: schedulingRoutes.postSchedule,
  getSchedules: schedulingRoutes.getSchedules,
  getSchedule: schedulingRoutes.getSchedule,
  patchSchedule: schedulingRoutes.patchSchedule,
  deleteSchedule: schedulingRoutes.deleteSchedule,
  postBulk: schedulingRoutes.postBulk,
  postRecurring: schedulingRoutes.postRecurring,
  getRecurringList: schedulingRoutes.getRecurringList,
  getRecurring: schedulingRoutes.getRecurring,
  deleteRecurring: schedulingRoutes.deleteRecurring,
  postOauthUrl: connectionsRoutes.postOauthUrl,
  getOauthCallback: connectionsRoutes.getOauthCallback,
  postOauthPick: connectionsRoutes.postOauthPick,
  postConnectLink: connectionsRoutes.postConnectLink,
  getConnectPage: connectionsRoutes.getConnectPage,
  postConnectPageOauth: connectionsRoutes.postConnectPageOauth,
  postConnectPageCredentials: connectionsRoutes.postConnectPageCredentials,
  getX: publishingRoutes.getX,
  devOutbox: localRoutes.devOutbox,
  devPlan: localRoutes.devPlan,
  postBillingCheckout: billingRoutes.postBillingCheckout,
  postBillingPortal: billingRoutes.postBillingPortal,
  getBilling: billingRoutes.getBilling,
  postDashboardPlanCheckout: dashboardRoutes.postDashboardPlanCheckout,
  postDashboardPlanPortal: dashboardRoutes.postDashboardPlanPortal,
  postBillingStripeWebhook: billingRoutes.postBillingStripeWebhook,
  getDashboardSignIn: dashboardRoutes.getDashboardSignIn,
  postDashboardSignIn: dashboardRoutes.postDashboardSignIn,
  getDashboardSignInLink: dashboardRoutes.getDashboardSignInLink,
  postDashboardSignInLink: dashboardRoutes.postDashboardSignInLink,
  postDashboardSignOut: dashboardRoutes.postDashboardSignOut,
  getDashboard: dashboardRoutes.getDashboard,
  getDashboardPlan: dashboardRoutes.getDashboardPlan,
  putGuardrails: guardrailsRoutes.putGuardrails,
  postSignupConfirm: accountRoutes.postSignupConfirm,
  getApprovals: approvalsRoutes.getApprovals,
  getApproval: approvalsRoutes.getApproval,
  postApprovalClientLink: approvalsRoutes.postApprovalClientLink,
  getReview: approvalsRoutes.getReview,
  postReview: approvalsRoutes.postReview,
  getDashboardApprovals: dashboardRoutes.getDashboardApprovals,
  postDashboardApprovalDecision: dashboardRoutes.postDashboardApprovalDecision,
  postDashboardApprovalClientLink: dashboardRoutes.postDashboardApprovalClientLink,
  postDashboardApprovalRules: dashboardRoutes.postDashboardApprovalRules,
  getDashboardPosts: dashboardRoutes.getDashboardPosts,
  getDashboardPostsExport: dashboardRoutes.getDashboardPostsExport,
  getDashboardPost: dashboardRoutes.getDashboardPost,
  getDashboardKeys: dashboardRoutes.getDashboardKeys,
  postDashboardKeys: dashboardRoutes.postDashboardKeys,
  getDashboardBrands: dashboardRoutes.getDashboardBrands,
  postDashboardBrands: dashboardRoutes.postDashboardBrands,
  getDashboardConnections: dashboardRoutes.getDashboardConnections,
  postDashboardConnections: dashboardRoutes.postDashboardConnections,
  getDashboardWebhooks: dashboardRoutes.getDashboardWebhooks,
  postDashboardWebhooks: dashboardRoutes.postDashboardWebhooks,
  getDashboardBranding: dashboardRoutes.getDashboardBranding,
  postDashboardBranding: dashboardRoutes.postDashboardBranding,
  getBrandingLogo: dashboardRoutes.getBrandingLogo,
  postMcp: mcpRoutes.postMcp,
  getOauthProtectedResource: mcpRoutes.getOauthProtectedResource,
  getOauthAuthorizationServer: mcpRoutes.getOauthAuthorizationServer,
  postOauthRegister: mcpRoutes.postOauthRegister,
  getDashboardAppsAuthorize: mcpRoutes.getDashboardAppsAuthorize,
  postDashboardAppsAuthorize: mcpRoutes.postDashboardAppsAuthorize,
  postOauthToken: mcpRoutes.postOauthToken,
  postOauthRevoke: mcpRoutes.postOauthRevoke,
  getDashboardApps: mcpRoutes.getDashboardApps,
  postDashboardAppRevoke: mcpRoutes.postDashboardAppRevoke,
  postGenerate: aiDraftsRoutes.postGenerate,
  postWeek: aiDraftsRoutes.postWeek,
  patchMe: accountRoutes.patchMe,
  deletePost: postLifecycleRoutes.deletePost,
  patchPost: postLifecycleRoutes.patchPost,
  postDashboardPostChange: postLifecycleRoutes.postDashboardPostChange,
  postValidate: publishingRoutes.postValidate,
  getDashboardCalendar: dashboardRoutes.getDashboardCalendar,
  postDashboardCalendarMove: dashboardRoutes.postDashboardCalendarMove,
  getDashboardCompose: dashboardRoutes.getDashboardCompose,
  postDashboardCompose: dashboardRoutes.postDashboardCompose,
  getDashboardScript: dashboardRoutes.getDashboardScript,
  postDashboardAppGuardrails: mcpRoutes.postDashboardAppGuardrails,
  getPostAnalytics: analyticsRoutes.getPostAnalytics,
  getAnalytics: analyticsRoutes.getAnalytics,
  getAnalyticsExport: analyticsRoutes.getAnalyticsExport,
} as const satisfies Record<string, RouteDef>;

export const routeList: RouteDef[] = Object.values(routes);
