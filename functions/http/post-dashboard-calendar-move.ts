import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { calendarHref } from '../../shared/http/dashboard/calendar-views';
import { moveScheduled } from '../../shared/app/dashboard/calendar';
import { CalendarMoveForm } from '../../shared/api/dashboard-schemas';

/** The calendar's move form: a new run_at through PATCH /api/schedule/{id}'s use case, then back to the calendar. */
export const handler = httpHandler(routes.postDashboardCalendarMove, async (req) => {
  let back: { brand?: string; view?: string; date?: string } = {};
  try {
    const form = parseForm(req, CalendarMoveForm);
    back = { brand: form.brand, view: form.view, date: form.date };
    await moveScheduled(req.deps, req.principal.account, form.schedule_id, { slot: form.slot, local: form.at });
    return redirect(calendarHref({ ...back, done: 'moved' }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(calendarHref({ ...back, error: err.code }));
  }
});
