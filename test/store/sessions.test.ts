import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { signup, confirmSignup } from '../../shared/app/signup';
import { checkSignInLink, completeSignIn, requestSignInLink, sessionPrincipal, SESSION_TTL_SECONDS, signOut, startSession } from '../../shared/app/dashboard/sign-in';
import { sha256Hex } from '../../shared/domain/api-key';
import { AppError, RateLimitedError } from '../../shared/domain/errors';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

let n = 0;
async function account(email: string) {
  const t = testDeps(table, {}, { frozenClock: true });
  await signup(t.deps, { email, ip: `203.0.113.${++n}` });
  await confirmSignup(t.deps, tokenOf(t.mailer.sent[0].links[0]));
  t.mailer.sent.length = 0;
  return t;
}

describe('dashboard sessions (embedded DynamoDB)', () => {
  it('create: only the hash is stored, with a 7-day expiry; the principal carries a CSRF token derived from the id', async () => {
    const { deps } = await account('sess-create@example.com');
    const accountId = (await deps.accounts.findIdByEmail('sess-create@example.com'))!;
    const { sessionId, expiresAt } = await startSession(deps, accountId);
    expect(expiresAt).toBe(Math.floor(deps.clock.now() / 1000) + SESSION_TTL_SECONDS);
    const raw = await table.doc.send(new GetCommand({ TableName: table.tableName, Key: { pk: `SESSION#${sha256Hex(sessionId)}`, sk: 'SESSION' } }));
    expect(raw.Item).toMatchObject({ account_id: accountId, expires_at: expiresAt });
    expect(JSON.stringify(raw.Item)).not.toContain(sessionId);
    const p = await sessionPrincipal(deps, sessionId);
    expect(p).toMatchObject({ account: { id: accountId }, sessionHash: sha256Hex(sessionId) });
    expect(p!.csrf).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(raw.Item)).not.toContain(p!.csrf);
    expect(await sessionPrincipal(deps, 'not-a-session')).toBeUndefined();
  });

  it('expire: a session is refused once its 7 days are over, though the item is still there (TTL is lazy)', async () => {
    const { deps, clock } = await account('sess-expire@example.com');
    const accountId = (await deps.accounts.findIdByEmail('sess-expire@example.com'))!;
    const { sessionId } = await startSession(deps, accountId);
    clock.advance(SESSION_TTL_SECONDS * 1000 - 1000);
    expect(await sessionPrincipal(deps, sessionId)).toBeDefined();
    clock.advance(1000);
    expect(await sessionPrincipal(deps, sessionId)).toBeUndefined();
  });

  it('revoke: sign-out ends the session at once; other sessions of the account go on', async () => {
    const { deps } = await account('sess-revoke@example.com');
    const accountId = (await deps.accounts.findIdByEmail('sess-revoke@example.com'))!;
    const a = await startSession(deps, accountId);
    const b = await startSession(deps, accountId);
    await signOut(deps, (await sessionPrincipal(deps, a.sessionId))!);
    expect(await sessionPrincipal(deps, a.sessionId)).toBeUndefined();
    expect(await sessionPrincipal(deps, b.sessionId)).toBeDefined();
  });

  it('magic link: unknown address gets the same answer and no mail; the link works once, even under 20 concurrent presses', async () => {
    const { deps, mailer } = await account('sess-link@example.com');
    expect(await requestSignInLink(deps, { email: 'nobody@example.com', ip: '198.51.100.1' })).toEqual({ email: 'nobody@example.com', emailed: true });
    expect(mailer.sent).toHaveLength(0);
    expect(await requestSignInLink(deps, { email: 'Sess-Link@example.com', ip: '198.51.100.1', returnTo: '/dashboard/posts' })).toEqual({ email: 'sess-link@example.com', emailed: true });
    const token = tokenOf(mailer.sent[0].links[0]);
    expect(mailer.sent[0].links[0]).toMatch(/^https:\/\/api\.test\/dashboard\/sign-in\/link\?token=/);
    expect(await checkSignInLink(deps, token)).toEqual({ returnTo: '/dashboard/posts' });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => completeSignIn(deps, token)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect((won[0] as PromiseFulfilledResult<{ returnTo: string }>).value.returnTo).toBe('/dashboard/posts');
    expect(results.filter((r) => r.status === 'rejected').every((r) => ((r as PromiseRejectedResult).reason as AppError).status === 410)).toBe(true);
    await expect(checkSignInLink(deps, token)).rejects.toMatchObject({ status: 410, code: 'link_used' });
    await expect(checkSignInLink(deps, 'tampered')).rejects.toMatchObject({ status: 404 });
    await expect(completeSignIn(deps, 'tampered')).rejects.toMatchObject({ status: 404 });
  });

  it('magic link: expires after 15 minutes; an off-site return path falls back to /dashboard', async () => {
    const { deps, mailer, clock } = await account('sess-late@example.com');
    await requestSignInLink(deps, { email: 'sess-late@example.com', ip: '198.51.100.2', returnTo: '//evil.example/x' });
    const token = tokenOf(mailer.sent[0].links[0]);
    expect(await checkSignInLink(deps, token)).toEqual({ returnTo: '/dashboard' });
    clock.advance(15 * 60 * 1000 + 1000);
    await expect(checkSignInLink(deps, token)).rejects.toMatchObject({ status: 410, code: 'link_expired' });
    await expect(completeSignIn(deps, token)).rejects.toMatchObject({ status: 410, code: 'link_expired' });
  });

  it('rate limits: 3 an hour per email, 5 an hour per IP', async () => {
    const { deps } = await account('sess-rl@example.com');
    for (let i = 0; i < 3; i++) await requestSignInLink(deps, { email: 'sess-rl@example.com', ip: `192.0.2.${i}` });
    await expect(requestSignInLink(deps, { email: 'sess-rl@example.com', ip: '192.0.2.9' })).rejects.toBeInstanceOf(RateLimitedError);
    for (let i = 0; i < 5; i++) await requestSignInLink(deps, { email: `other${i}@example.com`, ip: '192.0.2.77' });
    await expect(requestSignInLink(deps, { email: 'other9@example.com', ip: '192.0.2.77' })).rejects.toBeInstanceOf(RateLimitedError);
  });
});
