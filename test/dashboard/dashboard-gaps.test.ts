import { formatUsd } from '../../shared/domain/billing';
import { PLANS } from '../../shared/domain/plans';
import { planBody } from '../../shared/http/dashboard/overview-views';
import { keysBody } from '../../shared/http/dashboard/keys-views';
import { appsBody } from '../../shared/http/dashboard/apps-views';
import { dashboardShell, plainPage } from '../../shared/http/dashboard/layout';
import { connectPageHtml, hostedPage } from '../../shared/http/pages/connect-page';
import { contrast, readableAccent } from '../../shared/http/colors';
import { ICON_NETWORKS, networkColor, networkIcon, networkName, networkSprite } from '../../shared/http/network-icons';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { KeysForm } from '../../shared/api/dashboard-schemas';
import { keysAction } from '../../shared/app/dashboard/keys';
import { guardrailsInputOf } from '../../shared/app/guardrails/form-input';
import type { AiApp } from '../../shared/ports/mcp-oauth';

/** The gaps a new user found on the dashboard: each one as it renders. */

const line = (limit: number | null) => ({ limit, used: 0, remaining: limit, resets_at: null });
const usage = {
  posts_per_month: line(20), ai_drafts_per_day: line(5), brands: line(1), scheduled_at_a_time: line(10), webhooks: line(2), x_credits: line(0),
  networks_per_post: line(2), api_requests_per_minute_per_key: line(60),
} as unknown as Parameters<typeof planBody>[0]['usage'];

describe('money', () => {
  test('prices always print with two decimals', () => {
    expect(formatUsd(86.4)).toBe('86.40');
    expect(formatUsd(0)).toBe('0.00');
    expect(formatUsd(2870.4)).toBe('2,870.40');
    expect(PLANS.starter.price_usd_year).toBe(86.4);
  });
  test('the plan table prints the yearly prices as money, never as 86.4', () => {
    const html = planBody({ current: PLANS.free, usage });
    expect(html).toContain('<td>86.40</td>');
    expect(html).toContain('<td>9.00</td>');
    expect(html).not.toMatch(/>86\.4</);
  });
});

describe('the page shell', () => {
  const shell = dashboardShell({ title: 'T', active: 'compose', csrf: 'c', email: 'a@example.com', body: '<p>x</p>' });
  test('every page has a same-origin favicon (a data: URL, nothing fetched), the hosted pages too', () => {
    for (const page of [shell, plainPage({ title: 'T', body: '' }), hostedPage('T', '')]) {
      expect(page).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
    }
  });
  test('Compose is in the navigation, marked as the current page', () => {
    expect(shell).toContain('<a href="/dashboard/compose" aria-current="page">Compose</a>');
  });
  test('destructive buttons are solid red with white text at 4.5:1 or more', () => {
    expect(shell).toMatch(/button\.danger[^{]*\{background:#b3261e;border-color:#b3261e;color:#fff\}/);
    expect(contrast('#b3261e', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
  test('checkbox labels keep the box beside its text (inline-flex, the box never wraps away)', () => {
    expect(shell).toMatch(/label\.inline,label\.check\{display:inline-flex/);
  });
  test('the header lays out in two rows (mark and account, then the navigation) instead of wrapping', () => {
    expect(shell).toContain('grid-template-areas:"mark powered account" "nav nav nav"');
  });
});

describe('network icons', () => {
  test('every network has its badge, each colour readable under white text', () => {
    expect(ICON_NETWORKS.sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const p of PLATFORM_NAMES) expect([p, contrast(networkColor(p), '#ffffff') >= 4.5]).toEqual([p, true]);
  });
  test('beside a name the icon is decorative and adds no text; alone it is a named image', () => {
    const named = networkName('telegram');
    expect(named).toContain('aria-hidden="true"');
    expect(named.replace(/<[^>]+>/g, '')).toBe('telegram');
    expect(networkIcon('x', 'X')).toMatch(/role="img" aria-label="X"[^>]*><title>X<\/title>/);
  });
  test('a page carries the symbols of the networks it shows, and none when it shows none', () => {
    const sprite = networkSprite(`${networkName('bluesky')} ${networkName('x')} ${networkName('x')}`);
    expect([...sprite.matchAll(/<symbol id="(ni-[a-z_]+)"/g)].map((m) => m[1])).toEqual(['ni-bluesky', 'ni-x']);
    expect(networkSprite('<p>no network</p>')).toBe('');
  });
});

describe('the connect page', () => {
  const model = {
    link: { account_id: 'acc', expires_at: 2_000_000_000 }, brand: { id: 'brd', name: 'Acme' },
    networks: [{ platform: 'telegram', status: 'not_connected', oauth: false, fields: ['bot_token', 'chat_id'], optional_fields: [] }],
  } as unknown as Parameters<typeof connectPageHtml>[0];
  test("shows the owner's accent colour on buttons and links, and each network's icon", () => {
    const html = connectPageHtml(model, 'https://svc.example/connect/t', 1_900_000_000_000, undefined, { name: 'Acme Studio', accent: '#7b1fa2' });
    expect(html).toContain('background:#7b1fa2');
    expect(html).not.toContain('#0b57d0');
    expect(html).toContain('<use href="#ni-telegram"/>');
    expect(html).toContain('<symbol id="ni-telegram"');
  });
  test('a light accent is darkened until white text on it is readable', () => {
    const accent = readableAccent('#ffd54f');
    expect(contrast(accent, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(readableAccent('javascript:alert(1)')).toBe('#0b57d0');
    expect(connectPageHtml(model, 'https://svc.example/connect/t', 1_900_000_000_000, undefined, { name: 'A', accent: '#ffd54f' })).toContain(`background:${accent}`);
  });
});

describe('API keys page', () => {
  const data = { keys: [], brands: [], canGuard: true } as unknown as Parameters<typeof keysBody>[0];
  test('the create form offers the three scopes, all ticked', () => {
    const html = keysBody(data, 'c');
    for (const s of ['publish', 'read', 'manage']) expect(html).toMatch(new RegExp(`<input type="checkbox" id="scope-${s}" name="scopes" value="${s}" checked>`));
  });
  test('a new key is shown in a selectable field with a Copy button from the same-origin script', () => {
    const html = keysBody(data, 'c', undefined, { api_key: 'svc_live_abc', name: 'ci' });
    expect(html).toContain('<span class="secret" data-copy="Copy the new key"><code id="new-key">svc_live_abc</code></span>');
    expect(html).toContain('<script type="module" src="/dashboard/script.js"></script>');
  });
  test('the ticked scopes are the new key\'s scopes; none ticked is refused, not taken as all', async () => {
    const made: unknown[] = [];
    const deps = {
      keys: { create: async (k: unknown) => { made.push(k); }, listByAccount: async () => [] }, clock: { now: () => Date.parse('2026-01-01T00:00:00Z') },
      guardrails: { get: async () => undefined },
    } as unknown as Parameters<typeof keysAction>[0];
    const account = { id: 'acc', plan: 'starter' } as Parameters<typeof keysAction>[1];
    const form = (f: Record<string, unknown>) => KeysForm.parse(f);
    await keysAction(deps, account, form({ action: 'create', name: 'reader', scopes: ['read'], scopes_offered: '1' }));
    expect(made).toEqual([expect.objectContaining({ scopes: ['read'] })]);
    await expect(keysAction(deps, account, form({ action: 'create', name: 'none', scopes_offered: '1' }))).rejects.toMatchObject({ status: 400, code: 'scopes_required' });
    expect(made).toHaveLength(1);
  });
});

describe('AI apps page', () => {
  const app = { id: 'app_1', client_name: 'Agent', redirect_host: 'agent.example', created_at: '2026-01-01T00:00:00Z' } as AiApp;
  test('each live app has a guardrails form posting to its own address, besides Revoke', () => {
    const html = appsBody({ apps: [app], brands: [{ id: 'brd', name: 'Acme' }] as never, canGuard: true, csrf: 'c' });
    expect(html).toContain('<form method="post" action="/dashboard/apps/app_1/guardrails">');
    expect(html).toContain('name="monthly_post_cap"');
    expect(html).toContain('name="always_require_approval"');
    expect(html).toContain('aria-label="Revoke Agent"');
  });
  test('free plans see why there is no form; a revoked app has none', () => {
    expect(appsBody({ apps: [app], brands: [], canGuard: false, csrf: 'c' })).toContain('Guardrails are part of every paid plan');
    expect(appsBody({ apps: [{ ...app, revoked_at: '2026-01-02T00:00:00Z' }], brands: [], canGuard: true, csrf: 'c' })).not.toContain('/guardrails"');
  });
  test('the form reads as the guardrails use case takes it: an unticked limit is none', () => {
    expect(guardrailsInputOf({ monthly_post_cap: 5, limit_platforms: 'on', allowed_platforms: ['x'] })).toEqual({
      monthly_post_cap: 5, allowed_platforms: ['x'], allowed_brands: null, always_require_approval: false,
    });
  });
});
