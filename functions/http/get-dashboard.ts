import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { chartsSection, overviewBody } from '../../shared/http/dashboard/overview-views';
import { CHART_STYLE } from '../../shared/http/dashboard/charts-svg';
import { overview } from '../../shared/app/dashboard/overview';
import { engagementSeries, overviewCharts, type ChartRange } from '../../shared/app/dashboard/overview-charts';

/** Overview: charts of the account's recent activity and engagement, the plan, and every usage limit as a bar. */
export const handler = httpHandler(routes.getDashboard, async (req) => {
  const p = req.principal;
  const range = Number(req.query.days ?? 30) as ChartRange;
  const [data, charts] = await Promise.all([overview(req.deps, p.account), overviewCharts(req.deps, p.account.id, range)]);
  const engagement = await engagementSeries(req.deps, p.account.id, charts);
  const body = overviewBody({ email: p.account.email, ...data, charts: chartsSection(charts, range, engagement) });
  return pageReply(200, dashboardShell({ title: 'Overview', active: 'overview', csrf: p.csrf, email: p.account.email, body, style: CHART_STYLE }));
});
