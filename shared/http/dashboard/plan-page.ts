import type { SessionPrincipal } from '../../app/dashboard/sign-in';
import type { Reply } from '../reply';
import { overview } from '../../app/dashboard/overview';
import { billingOverview } from '../../app/billing/overview';
import { dashboardHeaders, dashboardShell, pageReply } from './layout';
import { planBody } from './overview-views';
import { billingSection, STRIPE_PAGE_ORIGINS } from './billing-views';

/** The Plan page (GET, and the answer of a refused checkout/portal form): plan table, billing, usage. */
export async function planPage(
  deps: Parameters<typeof overview>[0] & Parameters<typeof billingOverview>[0], p: SessionPrincipal, query: { plan?: string; checkout?: 'success' | 'canceled' },
  opts: { status?: number; message?: { kind: 'ok' | 'error'; text: string } } = {},
): Promise<Reply> {
  const [data, billing] = await Promise.all([overview(deps, p.account), billingOverview(deps, p.account)]);
  const section = billingSection(billing, { csrf: p.csrf, hint: query.plan, checkout: query.checkout, message: opts.message });
  const page = dashboardShell({ title: 'Plan', active: 'plan', csrf: p.csrf, email: p.account.email, body: planBody({ current: data.plan, hint: query.plan, usage: data.usage, billing: section }) });
  return pageReply(opts.status ?? 200, page, dashboardHeaders({ formAction: STRIPE_PAGE_ORIGINS }));
}
