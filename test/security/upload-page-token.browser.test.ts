import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TINY_PNG } from '../media/world';
import { axeViolations } from '../support/axe';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The upload page's per-page token in Chromium: the page's own requests carry it (the cookie is sent by the browser,
 * the header by the page's script); without the cookie (here: cleared, as another site's page would lack it) the
 * page says the upload did not work and to reload, accessibly, and nothing is issued. After a reload it works.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = process.env.SCREENSHOT_DIR ?? path.join(os.tmpdir(), 'spa-screens');

let rt: LocalRuntime;
let api: ReturnType<typeof client>;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does it)`);
  rt = await startRuntime();
  api = client(rt.url, await signupThroughApi(rt.url, 'upload-token-browser@example.com'));
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: false, // the new headless mode comes from the flag below
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

describe('the upload page token in Chromium', () => {
  it('without the page cookie the upload is refused with a clear message; after a reload the page uploads', async () => {
    const link = (await api('POST', '/api/media/upload-link', {})).body as { url: string; token: string };
    const page = await browser.newPage();
    const answers: number[] = [];
    page.on('response', (r) => { if (r.request().method() === 'POST') answers.push(r.status()); });
    await page.goto(link.url);
    const cookies = await browser.cookies(`${rt.url}/api/media/upload-link/${link.token}/url`);
    expect(cookies).toEqual([expect.objectContaining({ name: 'svc_form', httpOnly: true, sameSite: 'Strict', path: `/api/media/upload-link/${link.token}/` })]);

    await browser.clearCookies();
    await page.getByLabel('Choose a file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('button', { name: 'Upload' }).click();
    const status = page.getByRole('status').filter({ hasText: 'did not work' });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/out of date or was not sent from its page: reload the page and try again/);
    expect(answers).toEqual([403]);
    expect(await page.getByRole('button', { name: 'Upload' }).isEnabled()).toBe(true);
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'upload-page-token-refused.png'), fullPage: true });
    expect((await api('GET', `/api/media/upload-link/${link.token}`)).body).toMatchObject({ status: 'open' });

    await page.reload();
    await page.getByLabel('Choose a file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('region', { name: 'Upload complete' }).waitFor({ state: 'visible', timeout: 15_000 });
    expect((await api('GET', `/api/media/upload-link/${link.token}`)).body).toMatchObject({ status: 'uploaded' });
    await page.close();
  });
});
