import { PLATFORMS, isPlatformName, CREDENTIAL_PLATFORMS, OAUTH_PLATFORMS } from '../../shared/domain/platforms';
import { PLANS, PLAN_NAMES, nextPlan } from '../../shared/domain/plans';
import { isId, newId, ulid, randomBase62 } from '../../shared/domain/ids';
import { generateApiKey, isWellFormedApiKey, keyPrefix, sha256Hex } from '../../shared/domain/api-key';
import { RESULT_CODES, explain } from '../../shared/domain/result-codes';

describe('platform table (spec §2.1)', () => {
  it('lists the 16 networks in the spec order, then threads, pinterest and google_business', () => {
    expect(PLATFORMS.map((p) => p.name)).toEqual(['telegram', 'bluesky', 'mastodon', 'discord', 'wordpress', 'devto', 'hashnode', 'slack', 'nostr', 'tiktok', 'youtube', 'reddit', 'linkedin', 'facebook', 'instagram', 'x', 'threads', 'pinterest', 'google_business']);
  });

  it('has exactly the spec values for credential and OAuth networks', () => {
    const byName = Object.fromEntries(PLATFORMS.map((p) => [p.name, p]));
    expect(byName.wordpress).toEqual({ name: 'wordpress', audit_required: false, oauth: false, fields: ['site_url', 'username', 'app_password'], optional_fields: ['default_status'], kind: 'article', available: true, needs: 'text', max_media: 1 });
    expect(byName.hashnode.optional_fields).toEqual(['publication', 'default_status']);
    expect(byName.nostr).toEqual({ name: 'nostr', audit_required: false, oauth: false, fields: ['nsec'], optional_fields: ['relays'], available: true, needs: 'text', max_media: 1 });
    expect(byName.telegram).not.toHaveProperty('optional_fields');
    expect(byName.telegram).not.toHaveProperty('kind');
    expect(byName.tiktok).toEqual({ name: 'tiktok', audit_required: true, oauth: true, fields: [], available: true, needs: 'photo_or_video', max_media: 35 });
    expect(byName.youtube.needs).toBe('video');
    expect(byName.reddit.available).toBe(false);
    expect(byName.instagram.max_media).toBe(10);
    expect(byName.linkedin.max_media).toBe(20);
    expect(byName.x.addon).toEqual({ kind: 'x_credits', paid_plans_only: true, rule: expect.stringContaining('10 credits'), details: '/api/x' });
    expect(PLATFORMS.filter((p) => p.addon).map((p) => p.name)).toEqual(['x']);
    expect(byName.threads).toEqual({ name: 'threads', audit_required: true, oauth: true, fields: [], available: true, needs: 'text', max_media: 20 });
    expect(byName.pinterest).toEqual({ name: 'pinterest', audit_required: true, oauth: true, fields: [], available: true, needs: 'photo_or_video', max_media: 1 });
    expect(byName.google_business).toEqual({ name: 'google_business', audit_required: true, oauth: true, fields: [], available: true, needs: 'text', max_media: 1 });
  });

  it('splits credential and OAuth networks as spec §2.1 says', () => {
    expect(CREDENTIAL_PLATFORMS).toEqual(['telegram', 'bluesky', 'mastodon', 'discord', 'wordpress', 'devto', 'hashnode', 'slack', 'nostr']);
    expect(OAUTH_PLATFORMS).toEqual(['tiktok', 'youtube', 'reddit', 'linkedin', 'facebook', 'instagram', 'x', 'threads', 'pinterest', 'google_business']);
    expect(isPlatformName('myspace')).toBe(false);
    expect(isPlatformName('x')).toBe(true);
  });
});

describe('plan table (decisions.md)', () => {
  it('carries the decided limits', () => {
    expect(PLAN_NAMES).toEqual(['free', 'starter', 'pro', 'agency', 'scale']);
    expect(PLANS.free).toMatchObject({ price_usd_month: 0, brands: 1, posts_per_month: 20, networks_per_post: 2, webhooks: 2, ai_drafts_per_day: 5, scheduled_at_a_time: 10, api_requests_per_minute_per_key: 60, x_credits_per_month: 0, approvals: false });
    expect(PLANS.starter).toMatchObject({ price_usd_month: 9, brands: 3, posts_per_month: 500, networks_per_post: null, webhooks: 5, api_requests_per_minute_per_key: 120, approvals: true, client_approver_link: false });
    expect(PLANS.pro).toMatchObject({ price_usd_month: 29, brands: 10, posts_per_month: 10_000, posts_unlimited: true, webhooks: 10, client_approver_link: true, white_label: 'own name and logo' });
    expect(PLANS.scale).toMatchObject({ price_usd_month: 299, brands: 200, posts_per_month: 150_000, webhooks: 50, api_requests_per_minute_per_key: 1_200, x_credits_per_month: 6_000 });
    expect(PLANS.pro.price_usd_year).toBeCloseTo(29 * 12 * 0.8);
    expect(nextPlan('free')).toBe('starter');
    expect(nextPlan('scale')).toBe('scale');
  });
});

describe('ids and keys', () => {
  it('makes prefixed, time-sortable ids and rejects malformed ones', () => {
    const a = newId('acc', 1_000);
    const b = newId('acc', 2_000);
    expect(isId('acc', a)).toBe(true);
    expect(a < b).toBe(true);
    expect(isId('brd', a)).toBe(false);
    for (const bad of ['', 'acc_', 'acc_123', `acc_${'I'.repeat(26)}`, `acc_${ulid(Date.now())}x`, 'acc_../../etc']) expect(isId('acc', bad)).toBe(false);
  });

  it('generates svc_live_ keys of 40 base62 chars and hashes them', () => {
    const k = generateApiKey();
    expect(k).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    expect(isWellFormedApiKey(k)).toBe(true);
    expect(isWellFormedApiKey('svc_live_short')).toBe(false);
    expect(isWellFormedApiKey('sk_live_' + 'a'.repeat(40))).toBe(false);
    expect(keyPrefix(k)).toBe(k.slice(0, 12));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(new Set(Array.from({ length: 200 }, () => randomBase62(8))).size).toBe(200);
  });

  it('explains every result code in plain words, unknown codes as a refusal', () => {
    for (const [code, t] of Object.entries(RESULT_CODES)) {
      expect(t.what.length).toBeGreaterThan(10);
      expect(t.fix.length).toBeGreaterThan(10);
      expect(explain(code)).toBe(t);
    }
    expect(explain('something_new')).toBe(RESULT_CODES.rejected);
  });
});
