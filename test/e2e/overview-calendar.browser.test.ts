import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { DateTime } from 'luxon';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { axeViolations } from '../support/axe';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The Overview's charts and the Calendar in a real Chromium (Debian's /usr/bin/chromium) against the whole local
 * runtime: axe-core finds no serious or critical violation, the charts have their text alternatives, and a scheduled
 * post moved with the calendar's form (no JavaScript involved) has the new run_at in GET /api/schedule/{id}, and so
 * has one dragged to another day and to a free slot (the dashboard script fills and submits the same form).
 * Screenshots go to DASHBOARD_SHOTS (default: a temp dir) for a person to look at.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = process.env.DASHBOARD_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dash-shots-'));

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
let page: Page;
let api: ReturnType<typeof client>;
let brandId: string;
const telegram = new TelegramFake();
const EMAIL = 'calendar-owner@example.com';

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  const key = await signupThroughApi(rt.url, EMAIL, 'pro');
  api = client(rt.url, key);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  brandId = ((await api('GET', '/api/me')).body.brands as Array<{ id: string }>)[0].id;
  expect((await api('PATCH', `/api/brands/${brandId}`, { timezone: 'Europe/Berlin', slots: ['09:00', '13:00', '17:30'] })).status).toBe(200);
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${rt.url}/dashboard/sign-in`);
  await page.getByLabel('Email address').fill(EMAIL);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.locator('h1', { hasText: 'Check your email' }).waitFor();
  const mails = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
  await page.goto(mails.find((m) => m.to === EMAIL && m.subject.includes('sign-in'))!.links[0]);
  await Promise.all([page.waitForURL(/\/dashboard$/), page.getByRole('button', { name: 'Sign in' }).click()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await telegram.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

async function checked(name: string) {
  const bad = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: name, violations: bad }).toEqual({ page: name, violations: [] });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('Overview charts and the Calendar in a browser', () => {
  it('the Overview charts results by day and network, outcomes and failures by code, each with its table', async () => {
    for (const text of ['First post of the day', 'Second post of the day']) expect((await api('POST', '/api/post', { platform: 'telegram', text })).status).toBe(200);
    telegram.failNext(TelegramFake.error(400, 'Bad Request: message is too long'));
    const failed = await api('POST', '/api/post', { platform: 'telegram', text: 'This one is refused by the network' });
    const code = ((failed.body.results as Array<{ code: string }>)[0]).code;

    expect((await page.goto(`${rt.url}/dashboard?days=7`))!.status()).toBe(200);
    for (const id of ['chart-results', 'chart-outcomes', 'chart-failures']) {
      await expect(page.locator(`#${id} svg[role=img]`).getAttribute('aria-labelledby')).resolves.toBe(`${id}-svg-title ${id}-svg-desc`);
    }
    expect(await page.locator('#chart-results-table tbody tr').count()).toBe(7);
    await page.locator('#chart-failures summary').click();
    await expect(page.locator('#chart-failures-table tbody th').textContent()).resolves.toBe(code);
    expect(await page.locator('.tile', { hasText: 'Posts' }).locator('b').textContent()).toBe('3');
    await checked('overview-charts');
  });

  it('the Calendar shows a scheduled post in its slot; its form moves it, and the API answers the new run_at', async () => {
    const scheduled = await api('POST', '/api/schedule', { platform: 'telegram', text: 'Planned for the next free slot', run_at: 'next_slot' });
    expect(scheduled.status).toBe(200);
    const id = scheduled.body.schedule_id as string;
    const before = scheduled.body.run_at as string;
    expect((await api('POST', '/api/recurring', { platform: 'telegram', text: 'Every day at ten', cron: '0 10 * * *', timezone: 'Europe/Berlin' })).status).toBe(200);

    const week = `${rt.url}/dashboard/calendar?brand=${brandId}&view=week&date=${before.slice(0, 10)}`;
    expect((await page.goto(week))!.status()).toBe(200);
    const item = page.locator(`#sch-${id}`);
    await expect(item.locator('summary').textContent()).resolves.toContain('Planned for the next free slot');
    await expect(page.locator('.kind-recurring').first().textContent()).resolves.toContain('Every day at ten');
    await item.locator('summary').click();
    await checked('calendar-week');

    const select = item.getByLabel('Move to a free slot');
    const target = await select.locator('option').nth(2).getAttribute('value');
    expect(target).not.toBe(before);
    await select.selectOption(target!);
    await Promise.all([page.waitForURL(/done=moved/), item.getByRole('button', { name: 'Move' }).click()]);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Moved');
    const after = await api('GET', `/api/schedule/${id}`);
    expect(after.body).toMatchObject({ status: 'scheduled', run_at: target });

    // a time already past is refused in words, nothing changes
    await page.goto(`${rt.url}/dashboard/calendar?brand=${brandId}&view=week&date=${target!.slice(0, 10)}`);
    const moved = page.locator(`#sch-${id}`);
    await moved.locator('summary').click();
    await moved.getByLabel(/or to a time/).fill('2020-01-01T09:00');
    await Promise.all([page.waitForURL(/error=invalid_run_at/), moved.getByRole('button', { name: 'Move' }).click()]);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not valid or already past');
    expect((await api('GET', `/api/schedule/${id}`)).body).toMatchObject({ run_at: target });

    // a time typed on the brand's clock (Berlin) becomes that instant
    const local = `${DateTime.fromISO(target!).setZone('Europe/Berlin').plus({ days: 2 }).toISODate()}T11:15`;
    await moved.locator('summary').click();
    await moved.getByLabel(/or to a time/).fill(local);
    await Promise.all([page.waitForURL(/done=moved/), moved.getByRole('button', { name: 'Move' }).click()]);
    expect((await api('GET', `/api/schedule/${id}`)).body).toMatchObject({ run_at: DateTime.fromISO(local, { zone: 'Europe/Berlin' }).toUTC().toISO() });

    expect((await page.goto(`${rt.url}/dashboard/calendar?brand=${brandId}&view=month`))!.status()).toBe(200);
    await expect(page.locator('.kind-post').first().textContent()).resolves.toContain('post of the day');
    await checked('calendar-month');
  });
  it('dragging a scheduled post to another day keeps its time; dragging it to a free slot takes the slot; the API answers the new run_at', async () => {
    const scheduled = await api('POST', '/api/schedule', { platform: 'telegram', text: 'Dragged around the calendar', run_at: 'next_slot' });
    expect(scheduled.status).toBe(200);
    const id = scheduled.body.schedule_id as string;
    const before = DateTime.fromISO(scheduled.body.run_at as string).setZone('Europe/Berlin');
    await page.setViewportSize({ width: 1280, height: 2400 }); // the whole month on screen: a drag moves within the viewport
    expect((await page.goto(`${rt.url}/dashboard/calendar?brand=${brandId}&view=month&date=${before.toISODate()}`))!.status()).toBe(200);
    const item = page.locator(`#sch-${id}`);
    const slot = page.locator('li.free[data-slot-time]').last();
    const slotDay = await slot.evaluate((el) => el.closest('td')!.dataset.date!);
    expect(slotDay > before.toISODate()!).toBe(true);

    /** Drags the post with the mouse onto `target`, checks the outline and the announcement, and drops it. */
    const drag = async (target: ReturnType<typeof page.locator>, announced: string, shot?: string) => {
      await item.locator('summary').hover();
      await page.mouse.down();
      const box = (await target.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 8), { steps: 4 });
      // the drag events reach the page after the mouse moved: wait for the outline on the target
      await page.waitForFunction((el) => el!.classList.contains('drop-over'), await target.elementHandle(), { timeout: 5000 });
      await expect(page.locator('#cal-live').textContent()).resolves.toContain(announced);
      if (shot) await page.screenshot({ path: path.join(SHOTS, `${shot}.png`), fullPage: true });
      // the drop submits the move form: wait for the NEW page (after the first move the URL already says done=moved)
      await page.evaluate(() => { (window as unknown as { beforeDrop?: boolean }).beforeDrop = true; });
      await page.mouse.up();
      await page.waitForFunction(() => !(window as unknown as { beforeDrop?: boolean }).beforeDrop && document.readyState !== 'loading');
      expect(page.url()).toMatch(/done=moved/);
      await expect(page.getByRole('status').textContent()).resolves.toContain('Moved');
    };

    // onto the day (its date line, outside any slot): same time on that day
    await drag(page.locator(`td[data-date="${slotDay}"] p.date`).locator('xpath=..'), `Drop to move it to`, 'calendar-drag-day');
    const onDay = DateTime.fromISO(`${slotDay}T${before.toFormat('HH:mm')}`, { zone: 'Europe/Berlin' }).toUTC().toISO();
    expect((await api('GET', `/api/schedule/${id}`)).body).toMatchObject({ status: 'scheduled', run_at: onDay });

    // onto a free slot: that slot's time
    const free = page.locator('li.free[data-slot-time]').last();
    const [freeDay, freeTime] = [await free.evaluate((el) => el.closest('td')!.dataset.date!), await free.getAttribute('data-slot-time')];
    await drag(free, '(a free slot)', 'calendar-drag-slot');
    expect((await api('GET', `/api/schedule/${id}`)).body).toMatchObject({ run_at: DateTime.fromISO(`${freeDay}T${freeTime}`, { zone: 'Europe/Berlin' }).toUTC().toISO() });
    await checked('calendar-after-drag');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
