import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { axeViolations } from '../support/axe';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * Compose in a real Chromium against `npm start`'s sandbox: the live counts in each network's units (the served
 * script), the Check verdicts, and a post published end to end to two sandbox networks; each page passes axe-core
 * (no serious or critical violation) and is screenshotted at 1280 px to COMPOSE_SHOTS (default: a temp dir).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = process.env.COMPOSE_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'compose-shots-'));
const EMAIL = 'compose-browser@example.com';

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
let page: Page;

beforeAll(async () => {
  rt = await startRuntime();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
  page = await browser.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

async function checked(name: string) {
  const bad = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: name, violations: bad }).toEqual({ page: name, violations: [] });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

it('writes one post, counts it live per network, checks it and publishes it to two sandbox networks', async () => {
  const key = await signupThroughApi(rt.url, EMAIL, 'pro');
  const api = client(rt.url, key);
  const sb = (await client(rt.url)('GET', '/dev/sandbox')).body as { credentials: Record<string, Record<string, string>> };
  for (const platform of ['telegram', 'bluesky']) {
    expect((await api('POST', '/api/connect', { platform, credentials: sb.credentials[platform] })).status).toBe(200);
  }

  await page.goto(`${rt.url}/dashboard/sign-in`);
  await page.getByLabel('Email address').fill(EMAIL);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  const mails = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
  await page.goto(mails.filter((m) => m.to === EMAIL && m.subject.includes('sign-in')).at(-1)!.links[0]);
  await Promise.all([page.waitForURL(/\/dashboard/), page.getByRole('button', { name: 'Sign in' }).click()]);

  await page.goto(`${rt.url}/dashboard/compose`);
  // only the brand's connected networks are offered
  await expect(page.locator('input[name=platforms]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).resolves.toEqual(['telegram', 'bluesky']);
  await page.getByRole('checkbox', { name: /^Telegram/ }).check();
  await page.getByRole('checkbox', { name: /^Bluesky/ }).check();
  // live counts from the served script: an emoji family is 1 grapheme on Bluesky, 11 UTF-16 units on Telegram
  await page.getByLabel('Text').fill('Fresh bread 👨‍👩‍👧‍👦');
  await expect(page.locator('[data-preview=bluesky] output').textContent()).resolves.toBe('13');
  await expect(page.locator('[data-preview=telegram] output').textContent()).resolves.toBe('23');
  await page.getByLabel('Text').fill('x'.repeat(301));
  await expect(page.locator('[data-preview=bluesky] .over-flag').isVisible()).resolves.toBe(true);
  await expect(page.locator('[data-preview=telegram] .over-flag').isVisible()).resolves.toBe(false);
  await checked('compose-live-count');

  // Check: the server's verdicts per network (Bluesky's 300 graphemes)
  await Promise.all([page.waitForURL(`${rt.url}/dashboard/compose`), page.getByRole('button', { name: 'Check' }).click()]);
  await expect(page.locator('#verdict-h').textContent()).resolves.toContain('Not ready');
  await expect(page.locator('section[aria-labelledby=verdict-h] tbody tr').allTextContents()).resolves.toEqual([
    expect.stringMatching(/^telegramready/), expect.stringMatching(/^blueskytext_too_long/),
  ]);
  await checked('compose-check-verdicts');

  // the form kept the text and the ticks; publish now
  await page.getByLabel('Text').fill('Fresh bread from Compose');
  await Promise.all([page.waitForURL(`${rt.url}/dashboard/compose`), page.getByRole('button', { name: 'Publish now' }).click()]);
  await expect(page.locator('#result-h').textContent()).resolves.toBe('Published: one result per network');
  await expect(page.locator('section[aria-labelledby=result-h] tbody tr').allTextContents()).resolves.toEqual([
    expect.stringMatching(/^telegrampublished/), expect.stringMatching(/^blueskypublished/),
  ]);
  await checked('compose-published');
  const posts = (await api('GET', '/api/posts')).body as { posts: Array<{ text?: string; results?: unknown }> };
  expect(JSON.stringify(posts)).toContain('Fresh bread from Compose');

  // send for approval: held whatever the rules (none here), nothing sent until the owner decides
  await page.getByLabel('Text').fill('Rye loaves for review');
  const sentBefore = JSON.stringify((await client(rt.url)('GET', '/dev/sandbox')).body).split('Rye loaves for review').length;
  await Promise.all([page.waitForURL(`${rt.url}/dashboard/compose`), page.getByRole('button', { name: 'Send for approval' }).click()]);
  await expect(page.locator('[role=status]').first().textContent()).resolves.toContain('Sent for approval');
  const approvals = (await api('GET', '/api/approvals')).body as { approvals: Array<{ status: string; reason: string; platforms: string[] }> };
  expect(approvals.approvals).toEqual([expect.objectContaining({ status: 'pending', reason: 'requested', platforms: ['telegram', 'bluesky'] })]);
  expect(JSON.stringify((await client(rt.url)('GET', '/dev/sandbox')).body).split('Rye loaves for review').length).toBe(sentBefore);
}, 120_000);
