import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { axeViolations } from '../support/axe';
import { parseCsv } from '../support/csv';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The dashboard in a real Chromium (Debian's /usr/bin/chromium through playwright-core) against the whole local
 * runtime: sign-in through the outbox link, every page checked with axe-core (no serious or critical violation),
 * approve and reject, a guardrail edit, the CSV download, and a client approver's link. Screenshots of every page go
 * to DASHBOARD_SHOTS (default: a temp dir) for a person to look at.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = process.env.DASHBOARD_SHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dash-shots-'));

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
let page: Page;
let api: ReturnType<typeof client>;
const telegram = new TelegramFake();
const EMAIL = 'browser-owner@example.com';

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  const key = await signupThroughApi(rt.url, EMAIL, 'pro');
  api = client(rt.url, key);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, acceptDownloads: true });
  page = await browser.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await telegram.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

/** axe-core on the page as served: no serious or critical violation; and a full-page screenshot. */
async function checked(name: string, p: Page = page) {
  const bad = (await axeViolations(p)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: name, violations: bad }).toEqual({ page: name, violations: [] });
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const outboxLink = async (to: string, subject: string) => {
  const mails = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
  return mails.find((m) => m.to === to && m.subject.includes(subject))!.links[0];
};

describe('the dashboard in a browser', () => {
  it('signs in through the emailed link (GET shows a button, the POST signs in) and lands where it started', async () => {
    await page.goto(`${rt.url}/dashboard/plan?plan=agency`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await checked('sign-in');
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    // the form's answer has loaded before anything reads the page or navigates again
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await expect(page.locator('h1').textContent()).resolves.toBe('Check your email');
    await checked('check-email');
    await page.goto(await outboxLink(EMAIL, 'sign-in'));
    await checked('sign-in-link');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/sign-in'));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/dashboard/plan?plan=agency');
    expect(await page.locator('section#billing').count()).toBe(1);
    const cookie = (await browser.cookies()).find((c) => c.name === 'session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('every page passes axe-core (0 serious/critical) and is screenshotted', async () => {
    await api('POST', '/api/post', { platform: 'telegram', text: 'A first post for the log' });
    for (const [name, p] of [['overview', '/dashboard'], ['posts', '/dashboard/posts'], ['approvals', '/dashboard/approvals'], ['keys', '/dashboard/keys'],
      ['brands', '/dashboard/brands'], ['connections', '/dashboard/connections'], ['webhooks', '/dashboard/webhooks'], ['branding', '/dashboard/branding'], ['plan', '/dashboard/plan']]) {
      const res = await page.goto(rt.url + p);
      expect(res!.status()).toBe(200);
      await checked(name);
    }
    await page.goto(`${rt.url}/dashboard/posts`);
    await page.locator('#posts tbody a').first().click();
    await page.waitForURL((u) => u.pathname.startsWith('/dashboard/posts/pst_'));
    await expect(page.locator('h1').textContent()).resolves.toMatch(/^Post pst_/);
    await checked('post-detail');
  });

  it('approves one held post and rejects another from the Approvals page', async () => {
    await page.goto(`${rt.url}/dashboard/approvals`);
    const accountRule = page.locator('form', { has: page.locator('legend', { hasText: 'Every brand of the account' }) });
    await accountRule.getByLabel('Hold every post').check();
    await accountRule.getByRole('button', { name: 'Save rule' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('The approval rule is saved.');
    const a = await api('POST', '/api/post', { platform: 'telegram', text: 'Approve me in the browser' });
    const b = await api('POST', '/api/post', { platform: 'telegram', text: 'Reject me in the browser' });
    expect([a.status, b.status]).toEqual([202, 202]);
    await page.goto(`${rt.url}/dashboard/approvals`);
    await checked('approvals-queue');
    const cardA = page.locator(`#${a.body.approval_id as string}`);
    await cardA.getByLabel('Note (optional, shown with the decision)').fill('Good to go');
    await cardA.getByRole('button', { name: 'Approve and publish' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Approved');
    await page.locator(`#${b.body.approval_id as string}`).getByRole('button', { name: 'Reject' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Rejected');
    expect((await api('GET', `/api/approvals/${a.body.approval_id}`)).body).toMatchObject({ status: 'approved', note: 'Good to go' });
    expect((await api('GET', `/api/approvals/${b.body.approval_id}`)).body).toMatchObject({ status: 'rejected' });
    await checked('approvals-decided');
  });

  it("a client approver's link: the key is refused one, the owner's Send to client gives it (axe-checked), then reject; the link is then used up", async () => {
    const held = await api('POST', '/api/post', { platform: 'telegram', text: 'For the client to review' });
    expect(await api('POST', `/api/approvals/${held.body.approval_id}/client-link`)).toMatchObject({ status: 403, body: { code: 'session_required' } });
    await page.goto(`${rt.url}/dashboard/approvals`);
    const card = page.locator(`#${held.body.approval_id as string}`);
    await card.getByLabel('Client’s email (optional: the link is shown to you either way)').fill('client@example.com');
    await card.getByRole('button', { name: 'Send to client' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('emailed to client@example.com');
    await checked('client-link-sent');
    const url = await page.getByLabel('Review link').inputValue();
    expect(await outboxLink('client@example.com', 'Please review a post')).toBe(url);
    const client2 = await browser.newPage();
    await client2.goto(url);
    await expect(client2.locator('h1').textContent()).resolves.toContain('Review a post');
    await checked('client-review', client2);
    await client2.getByRole('button', { name: 'Reject' }).click();
    await expect(client2.getByRole('status').textContent()).resolves.toContain('Rejected');
    await checked('client-review-done', client2);
    const again = await client2.goto(url);
    expect(again!.status()).toBe(410);
    await checked('client-review-used', client2);
    expect((await api('GET', `/api/approvals/${held.body.approval_id}`)).body).toMatchObject({ status: 'rejected', decided_by: 'client' });
    await client2.close();
  });

  it('edits a guardrail of the API key on the API keys page', async () => {
    const keyId = (await api('GET', '/api/me')).body.key_id as string;
    await page.goto(`${rt.url}/dashboard/keys`);
    const card = page.locator(`#${keyId}`);
    await card.locator('summary').click();
    await card.getByLabel(/Monthly post cap/).fill('12');
    await card.getByLabel('Only these networks:').check();
    await card.getByRole('checkbox', { name: 'telegram', exact: true }).check();
    await card.getByRole('button', { name: 'Save guardrails' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Guardrails saved.');
    expect((await api('GET', '/api/me')).body.guardrails).toMatchObject({ monthly_post_cap: 12, allowed_platforms: ['telegram'] });
    await checked('keys-guardrails');
  });

  it('downloads the CSV export and parses it', async () => {
    await page.goto(`${rt.url}/dashboard/posts`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^posts-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
    expect(rows[0][0]).toBe('post_id');
    const texts = rows.slice(1).map((r) => r[11]);
    expect(texts).toEqual(expect.arrayContaining(['A first post for the log', 'Approve me in the browser']));
    expect(texts).not.toContain('Reject me in the browser');
  });
});
