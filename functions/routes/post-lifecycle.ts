import type { RouteDef } from '../../shared/http/route';
import * as s from '../../shared/api/schemas';
import * as c from '../../shared/api/post-change-schemas';
import * as o from '../../shared/api/oauth-schemas';
import { E, std } from './errors';

/** Deleting and editing published posts (issue 26), in THE route table (functions/routes.ts). */
export const postLifecycleRoutes = {
  deletePost: {
    id: 'delete-post', method: 'DELETE', path: '/api/posts/{id}', tag: 'Publishing', auth: 'key', scope: 'publish', grants: ['table', 'publishQueue'],
    summary: 'Delete a published post on its networks (or ?platforms=): one result per network; deleting again answers deleted without a network call',
    params: s.IdParams, query: c.DeletePostQuery, timeoutSeconds: 29,
    responses: {
      200: { description: 'One result per network: deleted, or failed with code/what/fix (not_supported, not_published, …)', schema: c.ChangeResponse },
      400: E('invalid_request'), 403: E('key_scope, brand_not_allowed'), 404: E('not_found'), 409: E('post_busy: another delete or edit of this post is running'), ...std,
    },
  },
  patchPost: {
    id: 'patch-post', method: 'PATCH', path: '/api/posts/{id}', tag: 'Publishing', auth: 'key', scope: 'publish', grants: ['table', 'kmsDecrypt', 'publishQueue'],
    summary: "Edit a published post's text (and per_platform text / title) where the network allows it: one result per network",
    params: s.IdParams, body: c.EditPostBody, timeoutSeconds: 29,
    responses: {
      200: { description: 'One result per network: edited, or failed with code/what/fix (not_supported: delete and post again; text_too_long, …)', schema: c.ChangeResponse },
      400: E('invalid_request, empty_text'), 403: E('key_scope, brand_not_allowed'), 404: E('not_found'), 409: E('post_busy: another delete or edit of this post is running'), ...std,
    },
  },
  postDashboardPostChange: {
    id: 'post-dashboard-post-change', stack: 'Dashboard', method: 'POST', path: '/dashboard/posts/{id}/change', tag: 'Dashboard', auth: 'session', grants: ['table', 'kmsDecrypt', 'publishQueue'],
    summary: "The post page's Edit and Delete buttons: edits or deletes the post on its networks and shows one result per network",
    params: s.IdParams, body: o.FormBody, extraContentTypes: o.FORM_TYPES, timeoutSeconds: 29,
    responses: {
      200: { description: 'One result per network (HTML)', contentType: 'text/html' },
      400: E('invalid_request, empty_text'), 403: E('session_required, csrf_failed'), 404: E('not_found'), 409: { description: 'post_busy: another delete or edit is running (HTML)', contentType: 'text/html' },
    },
  },
} as const satisfies Record<string, RouteDef>;
