import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TINY_PNG } from './world';
import { axeViolations } from '../support/axe';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The hosted upload page in a real browser: Debian's Chromium (installed by .ci/run) driven by playwright-core,
 * against the whole local runtime (the page PUTs cross-origin to the embedded S3 server, so CORS is exercised too).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let rt: LocalRuntime;
let key: string;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does it)`);
  rt = await startRuntime();
  key = await signupThroughApi(rt.url, 'browser@example.com');
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: false, // the new headless mode comes from the flag below
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

describe('the upload link page in Chromium', () => {
  it('a person picks a PNG, uploads it with the keyboard, sees 100 % and the path; the agent finalizes it', async () => {
    const api = client(rt.url, key);
    const link = await api('POST', '/api/media/upload-link', { note: 'Please send your logo' });
    expect(link.status).toBe(200);

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(link.body.url as string);
    expect(await page.title()).toBe('Upload a file');
    expect(await page.locator('.note').textContent()).toBe('Please send your logo');
    expect(await axeViolations(page)).toEqual([]);

    const input = page.getByLabel('Choose a file');
    await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
    await input.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('upload');
    await page.keyboard.press('Enter');

    const done = page.getByRole('region', { name: 'Upload complete' });
    await done.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator('#percent').textContent()).toBe('100 %');
    expect(await page.getByLabel('Upload progress').evaluate((el) => (el as HTMLProgressElement).value)).toBe(100);
    expect(await page.getByRole('status').textContent()).toBe('Upload complete.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('done');
    // the page never shows the storage path as something to hand back: the sender learns of the file by the link
    expect(await done.textContent()).toContain('nothing to copy or send back');
    expect(await page.content()).not.toMatch(/media\/acc_/);
    expect(errors).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    // the agent: status says uploaded with the same path, finalize gives media_url with the bytes behind it
    const status = (await api('GET', `/api/media/upload-link/${link.body.token}`)).body;
    expect(status).toMatchObject({ status: 'uploaded', path: expect.stringMatching(/^media\/acc_[0-9A-Z]{26}\/med_[0-9A-Z]{26}\.png$/) });
    const shownPath = status.path as string;
    const fin = await api('GET', `/api/media/finalize?path=${encodeURIComponent(shownPath)}`);
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ bytes: TINY_PNG.length, content_type: 'image/png' });
    expect(Buffer.from(await (await fetch(fin.body.media_url as string)).arrayBuffer())).toEqual(TINY_PNG);

    // single use: the page is now a 410 page
    const again = await page.goto(link.body.url as string);
    expect(again!.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('This upload link cannot be used');
    await page.close();
  });

  it('a file of another type is refused on the page, with a message, and nothing is uploaded', async () => {
    const api = client(rt.url, key);
    const link = await api('POST', '/api/media/upload-link', { content_type: 'image/png' });
    const page = await browser.newPage();
    const calls: string[] = [];
    page.on('request', (r) => { if (r.method() !== 'GET') calls.push(`${r.method()} ${new URL(r.url()).pathname}`); });
    await page.goto(link.body.url as string);
    expect(await page.getByLabel('Choose a file').getAttribute('accept')).toBe('image/png');
    await page.getByLabel('Choose a file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'not accepted' }).waitFor();
    expect(calls).toEqual([]);
    expect((await api('GET', `/api/media/upload-link/${link.body.token}`)).body).toMatchObject({ status: 'open' });
    await page.close();
  });
});
