import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { OffsetClock } from '../support/clock';
import { registered } from '../support/oauth';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { OAuthNetworkFake } from '../../shared/networks/sandbox-kit/oauth-network';
import type { LocalRuntime } from '../../infra/local/runtime';
import { CONNECT_LINK_TTL_SECONDS } from '../../shared/app/connect-link/issue';

/**
 * The hosted connect page in a real Chromium (Debian's /usr/bin/chromium through playwright-core) against the
 * whole local runtime: a credential network through its form (the Telegram fake) and an OAuth network through the
 * fake network's sign-in page (registered as LinkedIn; it redirects straight back), then both listed under the
 * brand through the API. Expiry: the runtime's clock (the deps every handler of this process shares) is moved past
 * the link's hour, so no waiting and no short-TTL switch in the product.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
const telegram = new TelegramFake();
const network = new OAuthNetworkFake();

/** The handlers' clock: real time, moved by hand for a moment. */
const handlersClock = new OffsetClock();

beforeAll(async () => {
  await Promise.all([telegram.start(), network.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url }, undefined, {
    deps: (chosen) => ({ ...registered(chosen, network, [{ name: 'linkedin' }]), clock: handlersClock }),
  });
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await Promise.all([telegram.stop(), network.stop()]);
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

describe('connect link in a browser', () => {
  it('connects Telegram through its form and LinkedIn through its sign-in, both saved into the brand; the expired link shows the expiry page', async () => {
    const key = await signupThroughApi(rt.url, 'browser@example.com', 'starter');
    const api = client(rt.url, key);
    const brand = ((await api('POST', '/api/brands', { name: 'Bakery' })).body.brand as { id: string }).id;
    const link = await api('POST', '/api/connect-link', { brand_id: brand });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ brand_id: brand, expires_in: 3600 });

    const page = await browser.newPage();
    const opened = await page.goto(link.body.url as string);
    expect(opened!.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connect your accounts to Bakery');
    await expect(page.locator('#net-telegram .state').textContent()).resolves.toBe('Not connected');

    // Telegram: open its form, fill the labelled fields, submit from the keyboard
    await page.locator('#net-telegram summary').click();
    await page.getByRole('textbox', { name: 'Chat ID or @channel' }).fill('@acmenews');
    await page.getByLabel('Bot token').fill(telegram.token);
    await page.getByLabel('Bot token').press('Enter');
    await page.waitForURL(/\?connected=telegram$/);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Telegram is connected as @acmenews.');
    await expect(page.locator('#net-telegram .state').textContent()).resolves.toBe('Connected as @acmenews');

    // LinkedIn: the sign-in button, operated from the keyboard, through the network's page and back
    const button = page.getByRole('button', { name: 'Connect with LinkedIn' });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?connected=linkedin$/);
    await expect(page.locator('#net-linkedin .state').textContent()).resolves.toBe('Connected as @fakeuser');
    await expect(page.locator('p', { hasText: 'networks connected' }).textContent()).resolves.toBe('2 of 19 networks connected.');
    expect(network.requests.some((r) => r.path === '/oauth/authorize')).toBe(true);
    expect(network.tokenCalls('authorization_code')).toHaveLength(1);

    const listed = await api('GET', '/api/connections');
    const under = (listed.body.brands as Array<{ id: string; connections: Array<{ platform: string; handle: string; status: string }> }>).find((b) => b.id === brand)!;
    expect(under.connections.map((c) => [c.platform, c.handle, c.status]).sort()).toEqual([['linkedin', '@fakeuser', 'active'], ['telegram', '@acmenews', 'active']]);
    expect(listed.text).not.toContain(telegram.token);

    // an hour later the same link shows the expiry page
    handlersClock.shift((CONNECT_LINK_TTL_SECONDS + 60) * 1000);
    try {
      const expired = await page.goto(link.body.url as string);
      expect(expired!.status()).toBe(410);
      await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
    } finally {
      handlersClock.shift(0);
    }
    await page.close();
  });
});
