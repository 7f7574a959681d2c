import * as z from 'zod';
import { PLATFORM_NAMES } from '../domain/platforms';
import { NetworkResultSchema } from './publish-schemas';

/** Approvals: the held-post answer, the read-only key routes, the review link and dashboard forms. */
export const HeldPostResponse = z.object({
  status: z.literal('pending_approval'), approval_id: z.string(), post_id: z.string(), brand_id: z.string(), results: z.array(NetworkResultSchema),
});
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export const ApprovalView = z.object({
  approval_id: z.string(), post_id: z.string(), status: z.enum(APPROVAL_STATUSES), reason: z.enum(['always', 'networks', 'guardrail', 'requested']),
  brand_id: z.string(), brand: z.string(), platforms: z.array(z.string()), text_preview: z.string(), source: z.string(), schedule_id: z.string().optional(),
  requested_by: z.string().nullable(),
  requested_by_name: z.string().nullable().meta({ description: 'The name of the API key (or AI app) that sent the post' }), created_at: z.string(), expires_at: z.string(), decided_at: z.string().nullable(),
  decided_by: z.enum(['owner', 'client', 'expiry']).nullable(), note: z.string().nullable(),
  publish_error: z.object({ code: z.string(), error: z.string() }).optional(),
});
export const ApprovalsQuery = z.strictObject({
  status: z.enum(APPROVAL_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  before: z.string().max(40).optional(),
});
export const ApprovalsResponse = z.object({ approvals: z.array(ApprovalView), next_before: z.string().nullable() });
export const ApprovalResponse = ApprovalView;
export const ClientLinkResponse = z.object({ url: z.string(), approval_id: z.string(), expires_at: z.string() });
export const ReviewParams = z.strictObject({ token: z.string().min(1).max(200) });
export const ReviewForm = z.strictObject({ decision: z.enum(['approve', 'reject']), note: z.string().max(1000).optional() });
export const DecisionForm = ReviewForm;
/** The dashboard's "Send to client" form: optionally the client's email address, which gets the link. */
export const ClientLinkForm = z.strictObject({ client_email: z.preprocess((v) => (v === '' ? undefined : v), z.email().max(254).optional()) });
export const RuleForm = z.strictObject({
  scope: z.string().min(1).max(100),
  always: z.enum(['on']).optional(),
  networks: z.array(z.enum(PLATFORM_NAMES)).optional(),
});
