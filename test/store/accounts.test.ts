import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { signup, confirmSignup, defaultBrandId } from '../../shared/app/signup';
import { authenticate } from '../../shared/app/auth';
import { createApiKey, listApiKeys, revokeApiKey } from '../../shared/app/api-keys';
import { createBrand, updateBrand } from '../../shared/app/brands';
import { hit, perMinute } from '../../shared/app/rate-limit';
import { AppError, RateLimitedError } from '../../shared/domain/errors';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function signedUp(email: string) {
  const t = testDeps(table, {}, { frozenClock: true });
  await signup(t.deps, { email, ip: `203.0.113.${Math.floor(Math.random() * 250)}` });
  const confirmed = await confirmSignup(t.deps, tokenOf(t.mailer.sent[0].links[0]));
  return { ...t, ...confirmed };
}

describe('signup and confirmation', () => {
  it('50 concurrent signups for one email make exactly one account with one Default brand', async () => {
    const { deps, mailer } = testDeps(table, {}, { frozenClock: true });
    const email = 'race@example.com';
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => signup(deps, { email, ip: `198.51.100.${i}` })));
    // 3 a day per email: the rest are rate limited, and none of them may create a second account.
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    expect(fulfilled).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof RateLimitedError)).toBe(true);
    const accountId = await deps.accounts.findIdByEmail(email);
    const res = await table.doc.send(new QueryCommand({
      TableName: table.tableName, IndexName: undefined,
      KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `ACC#${accountId}` },
    }));
    expect(res.Items!.filter((i) => i.sk === 'ACCOUNT')).toHaveLength(1);
    expect((await deps.brands.list(accountId!)).map((b) => [b.id, b.name])).toEqual([[defaultBrandId(accountId!), 'Default']]);
    expect(new Set(mailer.sent.map((m) => m.to))).toEqual(new Set([email]));
  });

  it('50 concurrent signups without the per-email limit still claim the email once', async () => {
    const { deps } = testDeps(table, {}, { frozenClock: true });
    const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => deps.accounts.claimEmail('claim@example.com', `acc_${String(i).padStart(26, '0')}`)));
    const winners = claims.filter((c) => c.claimed);
    expect(winners).toHaveLength(1);
    const holder = await deps.accounts.findIdByEmail('claim@example.com');
    for (const c of claims) if (!c.claimed) expect(c.accountId).toBe(holder);
  });

  it('answers the same for a new and a known email and never returns a credential', async () => {
    const { deps, mailer } = testDeps(table, {}, { frozenClock: true });
    const first = await signup(deps, { email: 'Known@Example.com', ip: '192.0.2.1' });
    const second = await signup(deps, { email: 'known@example.com', ip: '192.0.2.1' });
    expect(first).toEqual({ email: 'known@example.com', pending_verification: true, emailed: true });
    expect(second).toEqual(first);
    expect(JSON.stringify(first)).not.toMatch(/svc_live_/);
    expect(mailer.sent).toHaveLength(2);
    expect(mailer.sent[0].links[0]).toMatch(/^https:\/\/api\.test\/api\/signup\/confirm\?token=[\w-]{43}$/);
  });

  it('the link issues a working key once; a second use and an expired link are 410', async () => {
    const { deps, mailer, clock } = testDeps(table, {}, { frozenClock: true });
    await signup(deps, { email: 'once@example.com', ip: '192.0.2.2' });
    const token = tokenOf(mailer.sent[0].links[0]);
    const res = await confirmSignup(deps, token);
    expect(res.api_key).toMatch(/^svc_live_/);
    const principal = await authenticate(deps, `Bearer ${res.api_key}`);
    expect(principal.account).toMatchObject({ email: 'once@example.com', plan: 'free', verified: true, brand_count: 1 });
    await expect(confirmSignup(deps, token)).rejects.toMatchObject({ status: 410, code: 'link_expired' });

    await signup(deps, { email: 'late@example.com', ip: '192.0.2.3' });
    clock.advance(24 * 3600 * 1000 + 1000);
    await expect(confirmSignup(deps, tokenOf(mailer.sent[1].links[0]))).rejects.toMatchObject({ status: 410 });
    await expect(confirmSignup(deps, 'not-a-real-token-at-all')).rejects.toMatchObject({ status: 410 });
  });

  it('an unverified account cannot use a key (403)', async () => {
    const { deps } = testDeps(table, {}, { frozenClock: true });
    await signup(deps, { email: 'unverified@example.com', ip: '192.0.2.4' });
    const accountId = (await deps.accounts.findIdByEmail('unverified@example.com'))!;
    const key = await createApiKey(deps, accountId, {});
    await expect(authenticate(deps, `Bearer ${key.api_key}`)).rejects.toMatchObject({ status: 403, code: 'email_unverified' });
  });
});

describe('API keys', () => {
  it('401 for missing, malformed, unknown, expired and revoked keys; revocation is immediate', async () => {
    const { deps, clock, account } = await signedUp('keys@example.com');
    for (const header of [undefined, '', 'Basic abc', 'Bearer', 'Bearer svc_live_short', `Bearer svc_live_${'a'.repeat(40)}`]) {
      await expect(authenticate(deps, header)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    }
    const expiring = await createApiKey(deps, account.id, { name: 'short', expires_in_days: 1 });
    await expect(authenticate(deps, `Bearer ${expiring.api_key}`)).resolves.toBeDefined();
    clock.advance(86_400_000);
    await expect(authenticate(deps, `Bearer ${expiring.api_key}`)).rejects.toMatchObject({ status: 401, message: 'The API key has expired' });

    const k = await createApiKey(deps, account.id, { name: 'ci' });
    await expect(authenticate(deps, `bearer ${k.api_key}`)).resolves.toMatchObject({ key: { id: k.id } });
    await expect(revokeApiKey(deps, account.id, k.id)).resolves.toMatchObject({ id: k.id, revoked: true });
    await expect(authenticate(deps, `Bearer ${k.api_key}`)).rejects.toMatchObject({ status: 401, message: 'The API key was revoked' });
    await expect(revokeApiKey(deps, account.id, k.id)).rejects.toMatchObject({ status: 404 });
  });

  it('lists prefixes only, newest first, and never the secret or its hash', async () => {
    const { deps, account } = await signedUp('list@example.com');
    const k = await createApiKey(deps, account.id, { name: 'second' });
    const list = await listApiKeys(deps, account.id);
    expect(list.map((x) => x.name)).toEqual(['second', 'First key']);
    expect(list[0]).toEqual({ id: k.id, name: 'second', prefix: k.api_key.slice(0, 12), created_at: k.created_at, expires_at: null, revoked_at: null, scopes: ['publish', 'read', 'manage'] });
    expect(JSON.stringify(list)).not.toContain(k.api_key);
    expect(JSON.stringify(list)).not.toMatch(/[0-9a-f]{64}/);
  });

  it("cannot revoke another account's key, or an id that does not parse (404)", async () => {
    const a = await signedUp('owner-a@example.com');
    const b = await signedUp('owner-b@example.com');
    await expect(revokeApiKey(a.deps, a.account.id, b.key_id)).rejects.toMatchObject({ status: 404 });
    await expect(revokeApiKey(a.deps, a.account.id, 'key_nope')).rejects.toMatchObject({ status: 404 });
    await expect(authenticate(b.deps, `Bearer ${b.api_key}`)).resolves.toBeDefined();
  });
});

describe('brands', () => {
  it('enforces the plan brand limit under concurrency', async () => {
    const { deps, account } = await signedUp('brands@example.com');
    await deps.accounts.setPlan(account.id, 'starter'); // 3 brands, Default included
    const acc = (await deps.accounts.get(account.id))!;
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => createBrand(deps, acc, `Brand ${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as AppError);
    expect(refused).toHaveLength(8);
    expect(refused[0].toBody()).toEqual({ error: expect.any(String), code: 'brand_limit_reached', limit: 3, upgrade_url: 'https://api.test/dashboard/plan?plan=pro' });
    expect(await deps.brands.list(account.id)).toHaveLength(3);
  });

  it('updates name, timezone and slots; another account gets brand_not_found', async () => {
    const a = await signedUp('brand-a@example.com');
    const b = await signedUp('brand-b@example.com');
    const brandId = defaultBrandId(a.account.id);
    const updated = await updateBrand(a.deps, a.account.id, brandId, { name: 'Acme', timezone: 'Europe/Berlin', slots: ['17:00', '08:30', '17:00'] });
    expect(updated).toMatchObject({ name: 'Acme', timezone: 'Europe/Berlin', slots: ['08:30', '17:00'] });
    await expect(updateBrand(b.deps, b.account.id, brandId, { name: 'steal' })).rejects.toMatchObject({ status: 404, code: 'brand_not_found' });
  });
});

describe('rate limits', () => {
  it('counts hits across callers in a fixed window and says when to retry', async () => {
    const { deps, clock } = testDeps(table, {}, { frozenClock: true });
    clock.ms = Date.UTC(2026, 0, 1, 0, 0, 10);
    const outcomes = await Promise.allSettled(Array.from({ length: 25 }, () => hit(deps, 'subject-1', perMinute(20))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(20);
    const err = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason as RateLimitedError;
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBe(50);
    expect(err.headers['Retry-After']).toBe('50');
    expect(err.toBody()).toEqual({ error: expect.any(String), code: 'rate_limited', retry_after: 50 });
    clock.advance(50_000);
    await expect(hit(deps, 'subject-1', perMinute(20))).resolves.toMatchObject({ remaining: 19, reset: 60 });
  });
});
