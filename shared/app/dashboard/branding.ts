import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { Branding } from '../../ports/branding';
import { NotFoundError } from '../../domain/errors';
import { PLANS } from '../../domain/plans';
import { planFeature } from '../guardrails/guardrails';
import { dropLogo, storeLogo } from './branding-logo';

/** The service's own name, shown where no white label applies and in Pro's "powered by" line. */
export const SERVICE_NAME = 'Social Publishing';

/** What a page or email an end user or client sees shows as its mark. */
export interface BrandMark {
  name: string;
  logoUrl?: string;
  accent?: string;
  poweredBy?: string;
  supportEmail?: string;
}

/**
 * The mark of an account's client-facing pages and emails (spec §8.2): Free and Starter the service's own; Pro the
 * owner's name and logo with a small "powered by" line; Agency and Scale the owner's mark only. A brand's own
 * branding overrides the account's. Undefined: the service's mark.
 */
export async function markFor(deps: Pick<Deps, 'accounts' | 'branding'>, accountId: string, brandId?: string): Promise<BrandMark | undefined> {
  const account = await deps.accounts.get(accountId);
  if (!account) return undefined;
  const level = PLANS[account.plan].white_label;
  if (level === 'none') return undefined;
  const b = (brandId ? await deps.branding.get(accountId, brandId) : undefined) ?? await deps.branding.get(accountId, 'account');
  if (!b) return undefined;
  return {
    name: b.display_name, logoUrl: b.logo_url, accent: b.accent, supportEmail: b.support_email,
    ...(level === 'own name and logo' ? { poweredBy: SERVICE_NAME } : {}),
  };
}

/**
 * Sets the white label of the account or one brand: Pro and above (402 plan_feature naming pro). A logo that is an
 * upload is copied to the branding's own storage (`storeLogo`), so it outlives the upload's 30 days; the logo it
 * replaces is deleted.
 */
export async function setBranding(deps: Pick<Deps, 'branding' | 'brands' | 'clock' | 'settings' | 'uploads' | 'blobs'>, account: Account, input: { scope: string; display_name: string; logo_url?: string; accent?: string; support_email?: string }) {
  if (PLANS[account.plan].white_label === 'none') throw planFeature(deps, 'White label', 'pro');
  if (input.scope !== 'account' && !(await deps.brands.get(account.id, input.scope))) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
  const [previous, logo] = await Promise.all([
    deps.branding.get(account.id, input.scope),
    input.logo_url ? storeLogo(deps, account.id, input.logo_url) : undefined,
  ]);
  const b: Branding = {
    account_id: account.id, scope: input.scope, display_name: input.display_name.trim(),
    ...(logo ?? {}), ...(input.accent ? { accent: input.accent } : {}),
    ...(input.support_email ? { support_email: input.support_email } : {}), updated_at: new Date(deps.clock.now()).toISOString(),
  };
  await deps.branding.put(b);
  if (previous?.logo_key && previous.logo_key !== b.logo_key) await dropLogo(deps, previous.logo_key);
  return b;
}

/** The Branding page: the plan's white-label level, the brands, and what is set. */
export async function brandingPage(deps: Pick<Deps, 'branding' | 'brands'>, account: Account) {
  const [brands, branding] = await Promise.all([deps.brands.list(account.id), deps.branding.list(account.id)]);
  return { brands, branding, level: PLANS[account.plan].white_label };
}
