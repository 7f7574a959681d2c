import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { signupThroughApi, startRuntime } from '../support/runtime';
import { signInThroughOutbox } from '../support/dashboard';
import { axeViolations } from '../support/axe';
import type { LocalRuntime } from '../../infra/local/runtime';
import { FakeStripe, TEST_PRICES, formOf, signedDelivery, stripeEvent, subscriptionObject } from '../fakes/stripe';

/**
 * The Plan page's Billing section in a real Chromium (Debian's /usr/bin/chromium), as served (strict CSP, no script):
 * the checkout form is used from the keyboard and the browser follows the 303 to Stripe's checkout origin (which
 * resolves nowhere here: no request leaves the machine; the CSP's form-action must allow it), then,
 * with a subscription canceled for the period end and a plan history, the page is checked with axe-core.
 * Screenshots go to SCREENSHOT_DIR (default: the OS temp dir).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Stripe's hosts resolve nowhere: the browser's attempt to open them is the proof that the page let it go there.
const ARGS = ['--host-resolver-rules=MAP checkout.stripe.com ~NOTFOUND, MAP billing.stripe.com ~NOTFOUND', '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
const fake = new FakeStripe();

beforeAll(async () => {
  await fake.start();
  rt = await startRuntime(fake.env());
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await fake.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

const serious = (v: Awaited<ReturnType<typeof axeViolations>>) => v.filter((x) => x.impact === 'serious' || x.impact === 'critical');

describe('Plan page billing in a browser', () => {
  it('checks out from the keyboard to Stripe; shows the subscription, the scheduled cancellation and the history; no serious axe violations', async () => {
    const email = 'plan-browser@example.com';
    await signupThroughApi(rt.url, email);
    const session = await signInThroughOutbox(rt.url, email);
    const [name, value] = session.cookie.split('=');
    await browser.addCookies([{ name, value, url: rt.url }]);

    const page = await browser.newPage();
    expect((await page.goto(`${rt.url}/dashboard/plan?plan=pro`))!.status()).toBe(200);
    expect(serious(await axeViolations(page))).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'plan-billing-checkout.png'), fullPage: true });

    await page.getByLabel('Plan', { exact: true }).selectOption('agency');
    await page.getByLabel('Yearly (20 % cheaper)').check();
    await page.getByRole('button', { name: 'Continue to checkout' }).focus();
    const blockedByCsp: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) blockedByCsp.push(m.text()); });
    const [answer, attempt] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${rt.url}/dashboard/plan/checkout`),
      page.waitForEvent('requestfailed', (r) => r.url().startsWith('https://checkout.stripe.com/')),
      page.keyboard.press('Enter'),
    ]);
    expect(answer.status()).toBe(303);
    expect(attempt.url()).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(attempt.failure()?.errorText).toBe('net::ERR_NAME_NOT_RESOLVED');
    // Chrome then commits its error page: wait for it, or it interrupts the next goto ("navigation interrupted")
    await page.waitForURL((u) => u.href.startsWith('chrome-error://'), { waitUntil: 'commit' });
    expect(blockedByCsp).toEqual([]);
    const form = formOf(fake.calls('/v1/checkout/sessions').at(-1)!);
    expect(form['line_items[0][price]']).toBe(TEST_PRICES.STRIPE_PRICE_AGENCY_YEAR);

    // Stripe tells the service: subscribed, then canceled for the period end
    const now = Math.floor(rt.deps.clock.now() / 1000);
    const sub = subscriptionObject({ id: 'sub_browser', customer: form.customer, price: TEST_PRICES.STRIPE_PRICE_AGENCY_YEAR, periodEnd: now + 365 * 86_400 });
    for (const [i, event] of [stripeEvent('customer.subscription.created', sub, now), stripeEvent('customer.subscription.updated', { ...sub, cancel_at_period_end: true }, now + 1)].entries()) {
      const { payload, signature } = signedDelivery(event, { timestampSec: now + i });
      const res = await fetch(`${rt.url}/billing/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
      expect(res.status).toBe(200);
    }
    expect((await page.goto(`${rt.url}/dashboard/plan`))!.status()).toBe(200);
    await expect(page.locator('#billing').textContent()).resolves.toContain('Canceled: you keep agency until');
    await expect(page.getByRole('table', { name: 'Plan changes' }).locator('tbody tr').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Manage billing' }).isVisible()).resolves.toBe(true);
    expect(serious(await axeViolations(page))).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'plan-billing-subscribed.png'), fullPage: true });
    await page.close();
  }, 120_000);
});
