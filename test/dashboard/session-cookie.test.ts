import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clearedSessionCookie, csrfMatches, presentedCsrf, readCookie, sessionCookie, sessionCookieName } from '../../shared/http/session';
import { safeReturnPath } from '../../shared/app/dashboard/sign-in';

const event = (e: Partial<APIGatewayProxyEventV2>) => ({ headers: {}, ...e }) as APIGatewayProxyEventV2;

describe('session cookie and CSRF (shared/http/session.ts)', () => {
  it('over https: __Host-session with Secure, HttpOnly, SameSite=Lax, Path=/, 7 days; over http (local): session without Secure', () => {
    expect(sessionCookieName('https://api.example.com')).toBe('__Host-session');
    expect(sessionCookie('https://api.example.com', 'abc')).toBe('__Host-session=abc; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure');
    expect(clearedSessionCookie('https://api.example.com')).toBe('__Host-session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    expect(sessionCookie('http://localhost:3000', 'abc')).toBe('session=abc; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax');
  });

  it('reads the cookie from the v2 cookies array or the Cookie header, by exact name', () => {
    expect(readCookie(event({ cookies: ['x=1', '__Host-session=tok', 'session=other'] }), '__Host-session')).toBe('tok');
    expect(readCookie(event({ headers: { cookie: 'a=b; session=tok2' } }), 'session')).toBe('tok2');
    expect(readCookie(event({ cookies: ['xsession=nope'] }), 'session')).toBeUndefined();
  });

  it('the CSRF token comes from x-csrf-token or the url-encoded form field csrf; compared in constant time', () => {
    expect(presentedCsrf(event({ headers: { 'x-csrf-token': 'h' } }))).toBe('h');
    expect(presentedCsrf(event({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&csrf=f' }))).toBe('f');
    expect(presentedCsrf(event({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from('csrf=b64').toString('base64'), isBase64Encoded: true }))).toBe('b64');
    expect(presentedCsrf(event({ headers: { 'content-type': 'application/json' }, body: '{"csrf":"j"}' }))).toBeUndefined();
    expect(csrfMatches('abc', 'abc')).toBe(true);
    expect(csrfMatches('abd', 'abc')).toBe(false);
    expect(csrfMatches(undefined, 'abc')).toBe(false);
    expect(csrfMatches('ab', 'abc')).toBe(false);
  });

  it('return paths stay on this site', () => {
    expect(safeReturnPath('/dashboard/posts?status=failed')).toBe('/dashboard/posts?status=failed');
    for (const bad of ['https://evil.example', '//evil.example/x', '/\\evil', 'dashboard', undefined]) expect(safeReturnPath(bad)).toBe('/dashboard');
  });
});
