import http from 'node:http';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import { htmlHeaders } from '../../shared/http/handler';
import { isSafeDisplayText } from '../../shared/domain/display-text';

let rt: LocalRuntime;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  rt = await startRuntime();
  api = client(rt.url, await signupThroughApi(rt.url, 'hardening@example.com'));
});
afterAll(() => rt?.stop());

/** A GET with a chosen Host header (fetch does not let a caller set it). */
const withHost = (path: string, host: string) => new Promise<number>((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port: rt.port, path, headers: { host } }, (res) => { res.resume(); resolve(res.statusCode!); });
  req.on('error', reject);
  req.end();
});

describe('defence in depth', () => {
  it('every HTML response carries CSP, no-referrer, nosniff and frame denial; HSTS only on https', async () => {
    for (const path of ['/api/signup/confirm?token=not-a-real-token-at-all', '/upload/nothing-here-at-all', '/connect/nothing-here', '/api/oauth/linkedin/callback?start=x']) {
      const res = await api('GET', path);
      expect([path, res.headers.get('content-type')]).toEqual([path, expect.stringMatching(/text\/html/)]);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    expect(htmlHeaders(true)['strict-transport-security']).toMatch(/^max-age=\d{8,}/);
  });

  it('/dev/* answers only to a loopback Host header (no DNS rebinding of the outbox)', async () => {
    expect(await withHost('/dev/outbox', `localhost:${rt.port}`)).toBe(200);
    expect(await withHost('/dev/outbox', `127.0.0.1:${rt.port}`)).toBe(200);
    expect(await withHost('/dev/outbox', `[::1]:${rt.port}`)).toBe(200);
    for (const host of [`evil.example:${rt.port}`, 'evil.example', `localhost.evil.example:${rt.port}`, `127.0.0.1.nip.io:${rt.port}`]) {
      expect([host, await withHost('/dev/outbox', host)]).toEqual([host, 404]);
    }
  });

  it('display fields refuse control and bidi-override characters', async () => {
    for (const name of ['Acme\u202Egnp.exe', 'Acme\u2066x\u2069', 'bell\u0007', 'line\nbreak', 'nul\u0000', 'Acme\u200F']) {
      expect([JSON.stringify(name), (await api('POST', '/api/brands', { name })).status]).toEqual([JSON.stringify(name), 400]);
      expect((await api('POST', '/api/keys', { name })).status).toBe(400);
    }
    const brand = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0];
    expect((await api('PATCH', `/api/brands/${brand.id}`, { name: 'x\u202Dy' })).status).toBe(400);
    expect((await api('POST', '/api/media/upload-link', { note: 'send \u202Ethe logo' })).status).toBe(400);
    expect((await api('POST', '/api/media/upload-link', { note: 'Please send:\n- the logo\t(png)' })).status).toBe(200);
    expect(await api('PATCH', `/api/brands/${brand.id}`, { name: 'Café Ünïcode — 東京 🚀' })).toMatchObject({ status: 200, body: { name: 'Café Ünïcode — 東京 🚀' } });
    expect(isSafeDisplayText('Ok name')).toBe(true);
  });
});
