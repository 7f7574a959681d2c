import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardHeaders, dashboardShell, notice, pageReply } from '../../shared/http/dashboard/layout';
import { calendarBody, CALENDAR_STYLE } from '../../shared/http/dashboard/calendar-views';
import { calendarPage } from '../../shared/app/dashboard/calendar';
import { AppError } from '../../shared/domain/errors';

/** Calendar: one brand's week or month with its scheduled, recurring and published posts and its slots. */
export const handler = httpHandler(routes.getDashboardCalendar, async (req) => {
  const p = req.principal;
  // the calendar loads the dashboard script (drag and drop; the move forms work without it)
  const page = (status: number, body: string) => pageReply(status, dashboardShell({ title: 'Calendar', active: 'calendar', csrf: p.csrf, email: p.account.email, body, style: CALENDAR_STYLE }), dashboardHeaders({ script: true }));
  try {
    const c = await calendarPage(req.deps, p.account, { brand: req.query.brand, view: req.query.view, date: req.query.date });
    return page(200, calendarBody(c, p.csrf, { done: req.query.done, error: req.query.error }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return page(err.status, `<h1>Calendar</h1>${notice('error', err.message)}<p><a href="/dashboard/calendar">Back to the calendar</a></p>`);
  }
});
