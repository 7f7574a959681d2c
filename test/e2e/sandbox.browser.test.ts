import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { axeViolations } from '../support/axe';
import type { LocalRuntime } from '../../infra/local/runtime';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';

/**
 * Sandbox mode in a real Chromium: a customer connects LinkedIn (an OAuth network) through the hosted connect link
 * page, signing in on the LinkedIn simulator of `npm start` with its sandbox client id (no test registration, no
 * fake started by the test), then the post shows on the sandbox inbox page, which passes axe-core.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = path.join(os.tmpdir(), 'spa-sandbox-shots');

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  rt = await startRuntime();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

describe('sandbox mode in a browser', () => {
  it('connects LinkedIn through the connect link page and the LinkedIn simulator, then the post shows in the inbox page', async () => {
    expect(rt.networks).toBe('sandbox');
    const key = await signupThroughApi(rt.url, 'sandbox-browser@example.com', 'starter');
    const api = client(rt.url, key);
    const link = await api('POST', '/api/connect-link', {});
    expect(link.status).toBe(200);

    const page = await browser.newPage();
    expect((await page.goto(link.body.url as string))!.status()).toBe(200);
    await expect(page.locator('#net-linkedin .state').textContent()).resolves.toBe('Not connected');
    const button = page.getByRole('button', { name: 'Connect with LinkedIn' });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?connected=linkedin$/);
    await expect(page.locator('#net-linkedin .state').textContent()).resolves.toMatch(/^Connected as /);
    expect(rt.sandbox!.fake('linkedin', LinkedinFake).requests.some((r) => r.path === '/oauth/v2/authorization')).toBe(true);
    expect(rt.sandbox!.fake('linkedin', LinkedinFake).requests.some((r) => r.path === '/oauth/v2/accessToken')).toBe(true);

    const posted = await api('POST', '/api/post', { platform: 'linkedin', text: 'Hello LinkedIn from the sandbox' });
    expect((posted.body.results as Array<Record<string, unknown>>)[0]).toMatchObject({ platform: 'linkedin', ok: true, status: 'published' });

    const inbox = await browser.newPage();
    expect((await inbox.goto(`${rt.url}/dev/sandbox/inbox`))!.status()).toBe(200);
    await expect(inbox.locator('ol > li').first().textContent()).resolves.toContain('Hello LinkedIn from the sandbox');
    await inbox.screenshot({ path: path.join(SHOTS, 'inbox.png'), fullPage: true });
    const serious = (await axeViolations(inbox)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
  });
});
