import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { routeList } from '../../functions/routes';
import { handlerFile } from '../../shared/http/route';
import { responseViolation, routeFor, watchResponses } from '../support/response-contract';

/** The check the e2e client runs on every answer: the route's declared responses, as in the OpenAPI document. */
describe('response contract of the e2e client', () => {
  const json = 'application/json; charset=utf-8';

  it('finds the route of a path, a literal path before a templated one, the query ignored', () => {
    expect(routeFor('GET', '/api/posts/pst_123')?.id).toBe('get-post');
    expect(routeFor('GET', '/api/posts?limit=5')?.id).toBe('get-posts');
    expect(routeFor('GET', '/no/such/path')).toBeUndefined();
  });

  it('an answer its route declares passes: the route\'s own, and a middleware error the document adds', () => {
    expect(responseViolation('GET', '/api/posts/pst_1', 404, json, JSON.stringify({ error: 'Post not found', code: 'not_found' }))).toBeUndefined();
    expect(responseViolation('GET', '/api/me?verbose=1', 400, json, JSON.stringify({ error: 'Unknown field', code: 'unknown_field', fields: ['verbose'] }))).toBeUndefined();
  });

  it('a body the declared schema rejects is named with the route and the field', () => {
    expect(responseViolation('GET', '/api/posts/pst_1', 404, json, JSON.stringify({ message: 'nope' })))
      .toMatch(/^GET \/api\/posts\/pst_1 answered 404 with a body route get-post does not declare: (error|code): /);
    expect(responseViolation('GET', '/api/me', 200, json, '{}')).toMatch(/route get-me does not declare/);
  });

  it('a status the route does not declare is named, with those it does', () => {
    expect(responseViolation('GET', '/api/me', 418, json, '{}')).toMatch(/^GET \/api\/me answered 418, which route get-me does not declare \(200, /);
  });

  it("a browser route's 403 for a foreign Origin is declared (the OpenAPI document lists it), and the CORS preflight is not judged as the route's answer", () => {
    const refused = JSON.stringify({ error: 'Origin https://evil.example.com is not allowed', code: 'origin_not_allowed' });
    for (const [method, path] of [['POST', '/oauth/token'], ['POST', '/oauth/register'], ['POST', '/oauth/revoke'], ['GET', '/.well-known/oauth-authorization-server'], ['POST', '/api/mcp']]) {
      expect(responseViolation(method!, path!, 403, json, refused)).toBeUndefined();
    }
    expect(responseViolation('OPTIONS', '/api/mcp', 204, null, '')).toBeUndefined();
    expect(responseViolation('GET', '/api/keys', 403, json, refused)).toBeUndefined();
    expect(responseViolation('GET', '/api/platforms', 403, json, refused)).toMatch(/route get-platforms does not declare/);
  });

  it('every hosted form that refuses a cross-site post or a wrong page token declares its 403', () => {
    const root = path.resolve(__dirname, '../..');
    const guarded = routeList.filter((r) => /\bassert(SameOrigin|FormToken)\(/.test(fs.readFileSync(path.join(root, handlerFile(r)), 'utf8')));
    expect(guarded.length).toBeGreaterThanOrEqual(6);
    expect(guarded.filter((r) => !(403 in r.responses)).map((r) => r.id)).toEqual([]);
  });

  it('paths outside the route table and non-JSON answers are not judged', () => {
    expect(responseViolation('GET', '/sandbox/x/2/users/me', 200, json, '{}')).toBeUndefined();
    expect(responseViolation('GET', '/api/posts/pst_1', 404, 'text/html', '<p>x</p>')).toBeUndefined();
  });
});

/** Raw fetches of an e2e test (pages' JSON answers, OAuth endpoints, headers it sets itself) are judged as well. */
describe('every answer of a watched runtime', () => {
  const servers: http.Server[] = [];
  const serve = async (body: string) => {
    const server = http.createServer((_req, res) => { res.setHeader('content-type', 'application/json'); res.end(body); });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterAll(() => { for (const s of servers) s.close(); });

  it('a raw fetch to a watched runtime throws on an answer its route does not declare; other origins and non-route paths are not judged', async () => {
    const runtime = await serve('{}');
    const elsewhere = await serve('{}');
    watchResponses(runtime);
    await expect(fetch(`${runtime}/api/me`)).rejects.toThrow(/^GET \/api\/me answered 200 with a body route get-me does not declare/);
    await expect(fetch(`${runtime}/api/me`, { method: 'POST', body: '{}' })).resolves.toHaveProperty('status', 200);
    await expect(fetch(new Request(`${runtime}/api/keys`))).rejects.toThrow(/route get-keys does not declare/);
    expect((await fetch(`${elsewhere}/api/me`)).status).toBe(200);
    const redirects = http.createServer((req, res) => {
      if (req.url!.startsWith('/media/')) { res.writeHead(302, { location: '/storage/file.json' }); res.end(); return; }
      res.setHeader('content-type', 'application/json'); res.end('{"stored":true}');
    });
    servers.push(redirects);
    await new Promise<void>((resolve) => redirects.listen(0, '127.0.0.1', resolve));
    const storage = `http://127.0.0.1:${(redirects.address() as AddressInfo).port}`;
    watchResponses(storage);
    // a followed redirect is judged where it ended: the 302 of GET /media/{file} is declared, the storage answer is no route
    expect(await (await fetch(`${storage}/media/med_1-abc.png`)).json()).toEqual({ stored: true });
    const page = await fetch(`${runtime}/sandbox/x/2/users/me`);
    expect(await page.json()).toEqual({});
  });
});
