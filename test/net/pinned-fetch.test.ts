import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HostLookup } from '../../shared/net/address-guard';
import { UnsafeTargetError } from '../../shared/ports/media-gateway';
import { guardedFetch, pinnedFetch, type PinnedFetchInit } from '../../shared/net/pinned-fetch';
import { downloadMedia, probeMedia } from '../../shared/net/media';
import { MediaUnreachable } from '../../shared/ports/networks';
import { mediaGateway } from '../../shared/net/media-gateway';
import { networkContext } from '../../shared/app/network-context';
import type { Deps } from '../../shared/app/deps';
import { systemClock } from '../../shared/ports/clock';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

interface Seen { method: string; url: string; host: string; body: string; contentType?: string; authorization?: string }
let server: Server;
let port: number;
const seen: Seen[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body: Buffer.concat(chunks).toString('utf8'),
        contentType: req.headers['content-type'], authorization: req.headers.authorization,
      });
      switch ((req.url ?? '').split('?')[0]) {
        case '/img.png': res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }); return void res.end(PNG);
        case '/json': res.writeHead(200, { 'content-type': 'application/json' }); return void res.end('{"ok":true}');
        case '/see-other': res.writeHead(303, { location: '/json' }); return void res.end();
        case '/found': res.writeHead(302, { location: `http://other.test:${port}/json` }); return void res.end();
        case '/to-private': res.writeHead(302, { location: 'https://10.0.0.7/json' }); return void res.end();
        case '/empty': res.writeHead(204); return void res.end();
        case '/hang': return;
        default: res.writeHead(404); return void res.end();
      }
    });
  });
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => { seen.length = 0; });

/** A resolver that rebinds: each name answers a public address the first time and 127.0.0.1 every time after. */
function rebindingLookup(): { lookup: HostLookup; calls: string[] } {
  const calls: string[] = [];
  const lookup: HostLookup = async (host) => {
    const first = !calls.includes(host);
    calls.push(host);
    return first ? ['93.184.216.34'] : ['127.0.0.1'];
  };
  return { lookup, calls };
}

/** Stands in for the connection: records the addresses each hop was pinned to and answers from `answer`. */
function recordingConnect(answer: (url: URL) => Response) {
  const hops: Array<{ url: string; addresses: string[] }> = [];
  const connect = async (url: URL, init: PinnedFetchInit): Promise<Response> => {
    hops.push({ url: url.href, addresses: init.addresses });
    return answer(url);
  };
  return { connect, hops };
}

describe('pinnedFetch', () => {
  test('connects to the given address whatever the host name resolves to, keeping the Host header', async () => {
    // rebind.invalid never resolves: the request can only arrive if no DNS lookup happened at connect time
    const res = await pinnedFetch(`http://rebind.invalid:${port}/img.png?x=1`, { addresses: ['127.0.0.1'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    expect(seen).toEqual([expect.objectContaining({ method: 'GET', url: '/img.png?x=1', host: `rebind.invalid:${port}` })]);
  });

  test('a 204 has no body; an abort rejects with the signal reason', async () => {
    const empty = await pinnedFetch(`http://a.invalid:${port}/empty`, { addresses: ['127.0.0.1'] });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const err = await pinnedFetch(`http://a.invalid:${port}/hang`, { addresses: ['127.0.0.1'], signal: AbortSignal.timeout(200) })
      .then(() => undefined, (e: unknown) => e);
    expect((err as Error).name).toBe('TimeoutError');
  });
});

describe('media links cannot be rebound between the check and the connection', () => {
  test('a probe connects to the address the check approved, resolving once per hop', async () => {
    const { lookup, calls } = rebindingLookup();
    const { connect, hops } = recordingConnect(() => new Response(PNG, { status: 200, headers: { 'content-type': 'image/png' } }));
    expect(await probeMedia('https://rebind.example/a.png', { allowPrivate: false, lookup, connect }))
      .toEqual({ ok: true, content_type: 'image/png', kind: 'image' });
    expect(calls).toEqual(['rebind.example']);
    expect(hops).toEqual([{ url: 'https://rebind.example/a.png', addresses: ['93.184.216.34'] }]);
  });

  test('a redirect hop whose name now answers 127.0.0.1 is refused before any connection', async () => {
    const { lookup, calls } = rebindingLookup();
    const { connect, hops } = recordingConnect((url) => url.pathname === '/a.png'
      ? new Response(null, { status: 302, headers: { location: '/b.png' } })
      : new Response(PNG, { status: 200, headers: { 'content-type': 'image/png' } }));
    const err = await downloadMedia('https://rebind.example/a.png', { allowPrivate: false, lookup, connect, maxBytes: 1000, signal: AbortSignal.timeout(5000) })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(MediaUnreachable);
    expect((err as Error).message).toMatch(/rebind\.example resolves to 127\.0\.0\.1/);
    expect(calls).toEqual(['rebind.example', 'rebind.example']);
    expect(hops).toEqual([{ url: 'https://rebind.example/a.png', addresses: ['93.184.216.34'] }]);
  });

  test('without a connect seam the real pinned connection is used (allowPrivate, loopback)', async () => {
    const lookup: HostLookup = async () => ['127.0.0.1'];
    const media = await downloadMedia(`http://cdn.test:${port}/img.png`, { allowPrivate: true, lookup, maxBytes: 1000, signal: AbortSignal.timeout(5000) });
    expect(media).toEqual({ bytes: PNG, content_type: 'image/png', filename: 'img.png' });
    expect(seen.map((s) => s.host)).toEqual([`cdn.test:${port}`]);
  });
});

describe('guardedFetch (ctx.fetch of network adapters)', () => {
  test('connects to the checked public address; a later rebind to 127.0.0.1 is refused', async () => {
    const { lookup } = rebindingLookup();
    const { connect, hops } = recordingConnect(() => new Response('{"id":"1"}', { status: 200 }));
    const f = guardedFetch({ allowPrivate: false, lookup, connect });
    const res = await f('https://mastodon.example/api/v1/accounts/verify_credentials', { headers: { authorization: 'Bearer t' } });
    expect(await res.json()).toEqual({ id: '1' });
    expect(hops).toEqual([{ url: 'https://mastodon.example/api/v1/accounts/verify_credentials', addresses: ['93.184.216.34'] }]);
    const err = await f('https://mastodon.example/api/v1/statuses', { method: 'POST', body: '{}' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeTargetError);
    expect((err as UnsafeTargetError).reason).toBe('private_address');
    expect(hops).toHaveLength(1);
  });

  test('a followed redirect to a private address is refused; manual answers the 3xx', async () => {
    const lookup: HostLookup = async () => ['127.0.0.1'];
    const f = guardedFetch({ allowPrivate: true, lookup });
    const manual = await f(`http://site.test:${port}/to-private`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    const strict = guardedFetch({ allowPrivate: false, connect: async () => new Response(null, { status: 302, headers: { location: 'https://10.0.0.7/json' } }) });
    await expect(strict('https://93.184.216.34/x')).rejects.toThrow(/private or local address \(10\.0\.0\.7\)/);
  });

  test('allowPrivate: bodies, 303 → GET, cross-origin redirect drops Authorization, Host kept', async () => {
    const lookup: HostLookup = async () => ['127.0.0.1'];
    const f = guardedFetch({ allowPrivate: true, lookup });
    const posted = await f(`http://site.test:${port}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await posted.json()).toEqual({ ok: true });
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
    await f(`http://site.test:${port}/json`, { method: 'POST', body: form });
    const other = await f(`http://site.test:${port}/see-other`, { method: 'POST', body: 'x', headers: { authorization: 'Bearer t' } });
    expect(other.status).toBe(200);
    await f(`http://site.test:${port}/found`, { headers: { authorization: 'Bearer t' } });
    expect(seen.map((s) => [s.method, s.url, s.host, s.authorization])).toEqual([
      ['POST', '/json', `site.test:${port}`, undefined],
      ['POST', '/json', `site.test:${port}`, undefined],
      ['POST', '/see-other', `site.test:${port}`, 'Bearer t'],
      ['GET', '/json', `site.test:${port}`, 'Bearer t'],
      ['GET', '/found', `site.test:${port}`, 'Bearer t'],
      ['GET', '/json', `other.test:${port}`, undefined],
    ]);
    expect(seen[0].body).toBe('{"a":1}');
    expect(seen[1].contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[1].body).toContain('filename="a.png"');
  });

  test('networkContext hands adapters the gateway fetch: loopback credential URLs are refused without allowPrivate', async () => {
    const deps = { clock: systemClock, settings: { networkTimeoutMs: 2000 }, media: mediaGateway(false) } as unknown as Deps;
    const ctx = networkContext(deps, {});
    await expect(ctx.fetch(`https://127.0.0.1:${port}/json`, { signal: ctx.signal })).rejects.toThrow(/private or local address/);
    await expect(ctx.fetch(`http://localhost:${port}/json`)).rejects.toThrow(/must start with https/);
    expect(seen).toEqual([]);
    const local = networkContext({ ...deps, media: mediaGateway(true) } as Deps, {});
    const res = await local.fetch(`http://127.0.0.1:${port}/json`, { signal: local.signal });
    expect(await res.json()).toEqual({ ok: true });
  });
});
