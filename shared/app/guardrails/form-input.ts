import type { PlatformName } from '../../domain/platforms';
/** The guardrails form (API keys and AI apps pages) as the guardrails use case takes it: an unticked limit is none. */
export function guardrailsInputOf(form: {
  monthly_post_cap?: number; limit_platforms?: 'on'; allowed_platforms?: PlatformName[]; limit_brands?: 'on'; allowed_brands?: string[]; always_require_approval?: 'on';
}) {
  return {
    monthly_post_cap: form.monthly_post_cap ?? null,
    allowed_platforms: form.limit_platforms ? form.allowed_platforms ?? [] : null,
    allowed_brands: form.limit_brands ? form.allowed_brands ?? [] : null,
    always_require_approval: form.always_require_approval === 'on',
  };
}
