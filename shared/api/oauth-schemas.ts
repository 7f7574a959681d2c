import * as z from 'zod';

/** Request and response schemas of OAuth sign-ins, connect links and the X add-on (OpenAPI is generated from these). */

export const OAuthPlatformParams = z.object({ platform: z.string().min(1).max(40) });
export const OAuthUrlBody = z.object({
  brand_id: z.string().max(100).optional(),
  /** Where the browser goes after the callback, with platform, status and connection_id or code added. */
  redirect_after: z.string().max(2000).optional(),
}).strict();
export const OAuthUrlResponse = z.object({ url: z.string(), platform: z.string(), brand_id: z.string(), expires_in: z.number() });
export const OAuthCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(400).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
}).catchall(z.string());

/** Hosted-page form posts: application/x-www-form-urlencoded (the page's forms) or the same fields as JSON. */
export const FormBody = z.record(z.string(), z.string().max(10_000));
export const FORM_TYPES = ['application/x-www-form-urlencoded'] as const;

export const ConnectLinkBody = z.object({
  brand_id: z.string().max(100).optional(),
  platform: z.string().max(40).optional(),
}).strict();
export const ConnectLinkResponse = z.object({
  url: z.string(), token: z.string(), expires_in: z.literal(3600), brand_id: z.string(),
  platform: z.string().optional(), expires_at: z.string(),
}).meta({ id: 'ConnectLink' });
export const ConnectPageParams = z.object({ token: z.string().max(100) });
export const ConnectPageQuery = z.object({
  connected: z.string().max(40).optional(),
  failed: z.string().max(40).optional(),
  code: z.string().max(80).optional(),
}).catchall(z.string());
export const ConnectFormParams = z.object({ token: z.string().max(100), platform: z.string().max(40) });

export const XAddonResponse = z.object({
  platform: z.literal('x'), kind: z.string(), paid_plans_only: z.boolean(), available: z.boolean(),
  rules: z.object({ text: z.string(), post: z.number(), post_with_link: z.number(), per_media: z.number() }).catchall(z.string()),
  plan: z.string(), credits: z.number(), used: z.number(), left: z.number(), resets_at: z.string(), upgrade_url: z.string().optional(),
});

/** The fields of a hosted-page form: parsed from the urlencoded body, or the JSON body as validated. */
export function formFields(rawBody: string | undefined, body: Record<string, string> | undefined): Record<string, string> {
  if (rawBody === undefined) return body ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(rawBody)) if (!(k in out)) out[k] = v.slice(0, 10_000);
  return out;
}
