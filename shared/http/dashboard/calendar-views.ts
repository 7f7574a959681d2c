import type { calendarPage, CalendarItem } from '../../app/dashboard/calendar';
import { escapeHtml as e } from '../reply';
import { csrfField, notice } from './layout';
import { flashOf } from './flash';

/**
 * The Calendar page: a week or month grid (a table: one column per weekday) of one brand's scheduled posts, coming
 * recurring occurrences and posts made, with the brand's slots; each scheduled post opens (details) to its text and
 * a move form (a free slot, or another time on the brand's clock) that works without JavaScript. With the dashboard
 * script, a scheduled post can also be dragged to another day (same time) or a free slot: the script fills the same
 * form's time and submits it (data-move on the post, data-date on the days, data-slot-time on the free slots).
 */

type Calendar = Awaited<ReturnType<typeof calendarPage>>;

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const STATUS_WORDS: Record<string, string> = {
  scheduled: 'Scheduled', publishing: 'Publishing', recurring: 'Recurring', published: 'Published', partially_published: 'Partly published', failed: 'Failed', waiting: 'Sending',
};
const MOVE_MESSAGES: Record<string, string> = {
  moved: 'Moved: the post now runs at its new time.',
  invalid_run_at: 'That time is not valid or already past; nothing was changed.',
  schedule_not_pending: 'That post already ran or was canceled; it can no longer be moved.',
  schedule_publishing: 'That post is publishing now; it can no longer be moved.',
  schedule_deferred: 'That is a network’s rate-limit wait, run by the service; it cannot be moved.',
  no_free_slot: 'The brand has no free slot left; add slots on the Brands page or pick a time.',
};

const snippet = (t: string, n = 80) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/** The query string of a calendar view (only validated values go in). */
export const calendarHref = (q: { brand?: string; view?: string; date?: string; done?: string; error?: string }) =>
  `/dashboard/calendar?${new URLSearchParams(Object.entries(q).filter(([, v]) => v) as Array<[string, string]>).toString()}`;

function itemHtml(c: Calendar, i: CalendarItem, csrf: string, date: string): string {
  const head = `<span class="time">${e(i.time)}</span> <span class="status st-${e(i.status)}">${e(STATUS_WORDS[i.status] ?? i.status)}</span>`;
  const nets = `<span class="nets">${e(i.platforms.join(', '))}</span>`;
  if (i.kind === 'post') {
    return `<li class="item kind-post">${head}<br><a href="/dashboard/posts/${e(i.post_id!)}">${e(snippet(i.text) || 'Open post')}</a><br>${nets}</li>`;
  }
  if (i.kind === 'recurring' || !i.movable) {
    return `<li class="item kind-${e(i.kind)}">${head}<br>${e(snippet(i.text))}<br>${nets}</li>`;
  }
  const id = e(i.schedule_id!);
  const options = c.moveTargets.filter((t) => t.at !== i.at).map((t) => `<option value="${e(t.at)}">${e(t.label)}</option>`).join('');
  const drag = ` draggable="true" data-move="${id}" data-local="${e(date)}T${e(i.time)}" data-time="${e(i.time)}" data-move-label="${e(snippet(i.text, 40))}"`;
  return `<li class="item kind-scheduled" id="sch-${id}"${drag}><details><summary>${head} ${e(snippet(i.text, 40))}</summary>` +
    (i.text.length > 40 ? `<p class="full">${e(i.text)}</p>` : '') + `<p>${nets}</p>` +
    `<form method="post" action="/dashboard/calendar/move">${csrfField(csrf)}<input type="hidden" name="schedule_id" value="${id}">` +
    `<input type="hidden" name="brand" value="${e(c.brand.id)}"><input type="hidden" name="view" value="${e(c.view)}"><input type="hidden" name="date" value="${e(c.date)}">` +
    `<label for="mv-slot-${id}">Move to a free slot</label><select id="mv-slot-${id}" name="slot"><option value="">Choose a slot</option>${options}</select>` +
    `<label for="mv-at-${id}">or to a time (${e(c.timezone)})</label><input type="datetime-local" id="mv-at-${id}" name="at">` +
    `<button type="submit">Move</button></form></details></li>`;
}

function dayCell(c: Calendar, d: Calendar['weeks'][number][number], csrf: string): string {
  const [y, m, day] = d.date.split('-').map(Number);
  const weekday = WEEKDAYS[(new Date(Date.UTC(y, m - 1, day)).getUTCDay() + 6) % 7];
  const label = `${weekday} ${day} ${MONTHS[m - 1]}`;
  const slots = d.slots.length
    ? `<ul class="slots" aria-label="Slots on ${e(label)}">${d.slots.map((s) => `<li class="${s.taken ? 'taken' : 'free'}"${s.taken ? '' : ` data-slot-time="${e(s.time)}"`}>${e(s.time)} ${s.taken ? 'taken' : 'free'}</li>`).join('')}</ul>` : '';
  return `<td class="day${d.inRange ? '' : ' outside'}${d.today ? ' today' : ''}"${d.today ? ' aria-current="date"' : ''} data-date="${e(d.date)}" data-label="${e(label)}">` +
    `<p class="date"><span aria-hidden="true">${day}</span><span class="sr">${e(label)}</span>${d.today ? ' <span class="today-mark">today</span>' : ''}</p>` +
    (d.items.length ? `<ul class="items">${d.items.map((i) => itemHtml(c, i, csrf, d.date)).join('')}</ul>` : '') + slots + '</td>';
}

export function calendarBody(c: Calendar, csrf: string, flash: { done?: string; error?: string } = {}): string {
  const msg = flash.done === 'moved' ? notice('ok', MOVE_MESSAGES.moved)
    : flash.error ? notice('error', MOVE_MESSAGES[flash.error] ?? flashOf({ error: flash.error })!.text) : '';
  const brandOptions = c.brands.map((b) => `<option value="${e(b.id)}"${b.id === c.brand.id ? ' selected' : ''}>${e(b.name)}</option>`).join('');
  const viewOptions = (['week', 'month'] as const).map((v) => `<option value="${v}"${v === c.view ? ' selected' : ''}>${v === 'week' ? 'Week' : 'Month'}</option>`).join('');
  const unit = c.view === 'week' ? 'week' : 'month';
  const nav = `<ul class="cal-nav"><li><a href="${e(calendarHref({ brand: c.brand.id, view: c.view, date: c.prev }))}">Previous ${unit}</a></li>` +
    `<li><a href="${e(calendarHref({ brand: c.brand.id, view: c.view, date: c.today }))}">This ${unit}</a></li>` +
    `<li><a href="${e(calendarHref({ brand: c.brand.id, view: c.view, date: c.next }))}">Next ${unit}</a></li></ul>`;
  const counts = c.weeks.flat().filter((d) => d.inRange).reduce((n, d) => n + d.items.length, 0);
  return `<h1>Calendar</h1>${msg}` +
    `<form method="get" action="/dashboard/calendar" class="cal-controls"><div><label for="cal-brand">Brand</label><select id="cal-brand" name="brand">${brandOptions}</select></div>` +
    `<div><label for="cal-view">View</label><select id="cal-view" name="view">${viewOptions}</select></div><input type="hidden" name="date" value="${e(c.date)}"><div><button type="submit">Show</button></div></form>` +
    `<nav aria-label="Calendar pages">${nav}</nav>` +
    `<h2 id="cal-title">${e(c.title)}</h2><p class="hint">Times on the brand’s clock (${e(c.timezone)}). ${counts} item${counts === 1 ? '' : 's'}. ` +
    `Open a scheduled post to move it (or drag it to another day, keeping its time, or to a free slot); the brand’s posting slots are listed under each day (set them on the <a href="/dashboard/brands">Brands</a> page).</p>` +
    '<p id="cal-live" class="sr" aria-live="polite"></p>' +
    `<table class="calendar ${e(c.view)}" aria-labelledby="cal-title"><thead><tr>${WEEKDAYS.map((w) => `<th scope="col"><abbr title="${w}">${w.slice(0, 3)}</abbr></th>`).join('')}</tr></thead>` +
    `<tbody>${c.weeks.map((w) => `<tr>${w.map((d) => dayCell(c, d, csrf)).join('')}</tr>`).join('')}</tbody></table>` +
    '<script type="module" src="/dashboard/script.js"></script>';
}

/** The Calendar page's own style rules. */
export const CALENDAR_STYLE = 'main{max-width:80rem}.calendar{table-layout:fixed}.calendar td{padding:.35rem;border:1px solid #c8c8c8;height:6rem}' +
  '.calendar th{text-align:center}.calendar td.outside{background:#f5f5f5}.calendar td.outside .date{color:#4a4a4a}.calendar td.today{outline:3px solid #0b57d0;outline-offset:-3px}' +
  '.calendar .date{margin:0 0 .25rem;font-weight:700}.today-mark{font-weight:400;font-size:.8rem}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}' +
  '.calendar ul{list-style:none;margin:0;padding:0}.item{font-size:.85rem;border-left:4px solid #0b57d0;background:#eef3fc;padding:.25rem .35rem;margin:0 0 .35rem;border-radius:0 4px 4px 0;overflow-wrap:anywhere}' +
  '.item.kind-post{border-color:#0a6b2c;background:#e6f4ea}.item.kind-recurring{border-color:#6f42c1;background:#f1ecfa}.item .time{font-weight:700}.item .status{font-size:.75rem;text-transform:uppercase;letter-spacing:.02em}' +
  '.item .st-failed{color:#b3261e;font-weight:700}.item .nets{color:#4a4a4a;font-size:.8rem}.item summary{cursor:pointer}.item form select,.item form input{width:100%;font-size:.85rem}' +
  '.item form label{font-size:.8rem}.item form button{font-size:.85rem;padding:.3rem .7rem}.slots li{font-size:.75rem;color:#4a4a4a}.slots li.taken{text-decoration:line-through}' +
  '.cal-controls{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end}.cal-controls select{width:auto}.cal-nav{list-style:none;display:flex;gap:1.25rem;padding:0;margin:.75rem 0}' +
  '.calendar.month td{height:7rem}.item[draggable=true]{cursor:grab}.item.is-dragged{opacity:.6}' +
  '.calendar.dragging td[data-date]{outline:2px dashed #0b57d0;outline-offset:-4px}.calendar.dragging li.free{outline:1px dashed #0b57d0}' +
  '.calendar .drop-over,.calendar.dragging .drop-over{outline:3px solid #0b57d0;outline-offset:-3px;background:#dce7fb}.calendar li.drop-over{color:#0b2e6b;font-weight:700}';
