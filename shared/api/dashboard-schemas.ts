import { z } from 'zod';

/** Query and form shapes of the dashboard pages (issue 16). Forms arrive url-encoded; `csrf` is checked by the middleware. */
export const SignInQuery = z.strictObject({ return: z.string().max(500).optional() });
export const SignInForm = z.strictObject({ email: z.email().max(254), return: z.string().max(500).optional() });
export const SignInLinkQuery = z.strictObject({ token: z.string().min(1).max(200) });
export const SignInLinkForm = z.strictObject({ token: z.string().min(1).max(200) });
export const PlanQuery = z.strictObject({
  plan: z.string().max(20).optional(),
  // Billing (issue 13): where Stripe's checkout returns (success_url / cancel_url).
  checkout: z.enum(['success', 'canceled']).optional(), session_id: z.string().max(200).optional(),
});
export const EmptyQuery = z.strictObject({});
