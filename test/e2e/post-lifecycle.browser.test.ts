import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { axeViolations } from '../support/axe';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The post page's Edit and Delete buttons in a real Chromium against the local runtime: each page checked with
 * axe-core (no serious or critical violation) and screenshotted to LIFECYCLE_SHOTS (default: a temp dir).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = process.env.LIFECYCLE_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-shots-'));
const EMAIL = 'lifecycle-browser@example.com';

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
let page: Page;
const telegram = new TelegramFake();
const discord = new DiscordFake();

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  page = await browser.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop()]);
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

async function checked(name: string) {
  const bad = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: name, violations: bad }).toEqual({ page: name, violations: [] });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

it('edits and deletes a published post from its page, one result per network, keyboard-reachable and accessible', async () => {
  const key = await signupThroughApi(rt.url, EMAIL, 'pro');
  const api = client(rt.url, key);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
  const postId = (await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'Helo from the dashboard' })).body.post_id as string;

  await page.goto(`${rt.url}/dashboard/sign-in`);
  await page.getByLabel('Email address').fill(EMAIL);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  // each form's navigation has committed before the next goto (a goto racing it fails "navigation interrupted")
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const mails = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
  await page.goto(mails.filter((m) => m.to === EMAIL && m.subject.includes('sign-in')).at(-1)!.links[0]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/sign-in'));

  await page.goto(`${rt.url}/dashboard/posts/${postId}`);
  await expect(page.getByRole('heading', { name: 'Edit or delete' }).count()).resolves.toBe(1);
  await checked('post-page-with-edit-and-delete');
  await page.getByLabel('New text').fill('Hello from the dashboard');
  await page.getByRole('button', { name: 'Edit on the networks' }).click();
  // the form's navigation commits after the click or key press returns: wait for the results page
  await page.getByRole('heading', { level: 1, name: 'Edit: one result per network', exact: true }).waitFor();
  await expect(page.locator('tbody tr').allTextContents()).resolves.toEqual(['telegramedited', 'discordedited']);
  await checked('edit-results');
  expect([...discord.messages.values()]).toEqual(['Hello from the dashboard']);

  // the delete needs its confirmation box: the browser refuses to submit without it
  await page.goto(`${rt.url}/dashboard/posts/${postId}`);
  await page.getByRole('button', { name: 'Delete from the networks' }).click();
  expect(new URL(page.url()).pathname).toBe(`/dashboard/posts/${postId}`);
  expect(discord.messages.size).toBe(1);
  await page.getByLabel('Yes, delete this post from its networks').check();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  // the form's navigation commits after the click or key press returns: wait for the results page
  await page.getByRole('heading', { level: 1, name: 'Delete: one result per network', exact: true }).waitFor();
  await expect(page.locator('tbody tr').allTextContents()).resolves.toEqual(['telegramdeleted', 'discorddeleted']);
  await checked('delete-results');
  expect(discord.messages.size).toBe(0);
  expect(telegram.sent.size).toBe(0);

  await rt.drained();
  await page.goto(`${rt.url}/dashboard/posts/${postId}`);
  await expect(page.locator('li code').allTextContents()).resolves.toEqual(expect.arrayContaining(['post.edited', 'post.deleted']));
}, 120_000);
