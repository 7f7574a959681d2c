import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MediaUnreachable } from '../../shared/ports/networks';
import type { HostLookup } from '../../shared/net/address-guard';
import { UnsafeTargetError } from '../../shared/ports/media-gateway';
import { downloadMedia, probeMedia } from '../../shared/net/media';
import { sniffKind } from '../../shared/media/sniff';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(2040).fill(7)]);
const MP4 = Uint8Array.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...new Array<number>(3000).fill(1)]);
const BIG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...new Array<number>(100_000).fill(3)]);

let server: Server;
let base: string;
const sockets = new Set<Socket>();
const ranges: Array<string | undefined> = [];

/** Serves `body`, honouring a `Range: bytes=a-b` header with a 206 answer. */
function sendBinary(req: IncomingMessage, res: ServerResponse, body: Uint8Array, type: string): void {
  const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  if (m) {
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), body.length - 1);
    res.writeHead(206, { 'content-type': type, 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
    res.end(body.subarray(start, end + 1));
    return;
  }
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}

/** Woken when the server leaves a /hang request unanswered. */
const hung: Array<() => void> = [];
const nextHang = () => new Promise<void>((resolve) => hung.push(resolve));

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    ranges.push(req.headers.range);
    switch (path) {
      case '/img.png': return sendBinary(req, res, PNG, 'image/png');
      case '/clip.bin': return sendBinary(req, res, MP4, 'application/octet-stream');
      case '/noise.bin': return sendBinary(req, res, new Uint8Array(500).fill(9), 'application/octet-stream');
      case '/doc.pdf': return sendBinary(req, res, PNG, 'application/pdf');
      case '/page': res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); return void res.end('<html><body>hi</body></html>');
      case '/missing': res.writeHead(404, { 'content-type': 'text/plain' }); return void res.end('not found');
      case '/private': res.writeHead(403); return void res.end();
      case '/redirect': res.writeHead(302, { location: '/img.png' }); return void res.end();
      case '/loop': res.writeHead(302, { location: '/loop' }); return void res.end();
      case '/big': return sendBinary(req, res, BIG, 'image/jpeg');
      case '/big-stream': {
        // No Content-Length: the cap must hold while streaming.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 10; i++) res.write(BIG.subarray(i * 10_000, (i + 1) * 10_000));
        return void res.end();
      }
      case '/hang': hung.splice(0).forEach((wake) => wake()); return; // never answers
      default: res.writeHead(500); return void res.end();
    }
  });
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const local = { allowPrivate: true, timeoutMs: 2000 };
const signal = (): AbortSignal => AbortSignal.timeout(5000);

describe('probeMedia against a loopback server (allowPrivate)', () => {
  test('a PNG is an image, with its size from Content-Range, asked with a Range header', async () => {
    ranges.length = 0;
    expect(await probeMedia(`${base}/img.png`, local)).toEqual({ ok: true, content_type: 'image/png', kind: 'image', bytes: PNG.length });
    expect(ranges).toEqual(['bytes=0-1023']);
  });

  test('an MP4 served as octet-stream is sniffed as a video', async () => {
    expect(await probeMedia(`${base}/clip.bin`, local)).toEqual({ ok: true, content_type: 'video/mp4', kind: 'video', bytes: MP4.length });
  });

  test('octet-stream that is not media is refused', async () => {
    const r = await probeMedia(`${base}/noise.bin`, local);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/not a recognised image or video/) });
  });

  test('an HTML page is not a media file', async () => {
    expect(await probeMedia(`${base}/page`, local)).toEqual({ ok: false, reason: 'the link is a web page, not a media file' });
  });

  test('another content type is refused with that type named', async () => {
    expect(await probeMedia(`${base}/doc.pdf`, local)).toEqual({ ok: false, reason: expect.stringContaining('application/pdf') });
  });

  test('404 and 403 give the status', async () => {
    expect(await probeMedia(`${base}/missing`, local)).toEqual({ ok: false, reason: expect.stringContaining('HTTP 404') });
    expect(await probeMedia(`${base}/private`, local)).toEqual({ ok: false, reason: expect.stringContaining('HTTP 403') });
  });

  test('a server that never answers is given up within timeoutMs', async () => {
    // timeoutMs is the probe's own socket-level timer: the answer names it; without it the test would never end
    const r = await probeMedia(`${base}/hang`, { allowPrivate: true, timeoutMs: 300 });
    expect(r).toEqual({ ok: false, reason: 'the media server did not answer within 300 ms' });
  });

  test('a connection error is reported', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await probeMedia(`http://127.0.0.1:${port}/x.png`, local)).toEqual({ ok: false, reason: expect.stringMatching(/could not be reached/) });
  });

  test('a redirect is followed', async () => {
    expect(await probeMedia(`${base}/redirect`, local)).toMatchObject({ ok: true, kind: 'image' });
  });

  test('more than 3 redirects are refused', async () => {
    expect(await probeMedia(`${base}/loop`, local)).toEqual({ ok: false, reason: 'the link redirects more than 3 times' });
  });

  test('without allowPrivate the 127.0.0.1 link is refused as a private address, before any request', async () => {
    ranges.length = 0;
    const r = await probeMedia(`${base}/img.png`, { allowPrivate: false });
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/^the link must start with https/) });
    const https = await probeMedia(base.replace('http:', 'https:') + '/img.png', { allowPrivate: false });
    expect(https).toEqual({ ok: false, reason: expect.stringMatching(/private or local address \(127\.0\.0\.1\)/) });
    expect(ranges).toEqual([]);
  });
});

describe('redirects are re-checked without allowPrivate', () => {
  const lookup: HostLookup = async (host) => {
    const table: Record<string, string[]> = { 'cdn.example': ['93.184.216.34'], 'internal.example': ['192.168.0.10'], 'img.example': ['151.101.1.1'] };
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };

  /** A fake network: each URL maps to one answer; records what was fetched. */
  function fakeFetch(routes: Record<string, () => Response>): { fetchImpl: typeof fetch; calls: string[] } {
    const calls: string[] = [];
    const fetchImpl: typeof fetch = async (input, init) => {
      const href = input instanceof URL ? input.href : typeof input === 'string' ? input : input.url;
      calls.push(href);
      expect(init?.redirect).toBe('manual');
      const route = routes[href];
      if (!route) throw new Error(`unexpected fetch of ${href}`);
      return route();
    };
    return { fetchImpl, calls };
  }
  const redirect = (location: string) => (): Response => new Response(null, { status: 302, headers: { location } });

  test.each([
    ['a private IP literal', 'https://10.0.0.5/a.png', /private or local address \(10\.0\.0\.5\)/],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/', /private or local address/],
    ['a name resolving to a private address', 'https://internal.example/a.png', /internal\.example resolves to 192\.168\.0\.10/],
    ['plain http to loopback', 'http://127.0.0.1:9/a.png', /must start with https/],
  ])('a redirect to %s is refused and never fetched', async (_label, location, reason) => {
    const { fetchImpl, calls } = fakeFetch({ 'https://cdn.example/a.png': redirect(location) });
    const r = await probeMedia('https://cdn.example/a.png', { allowPrivate: false, lookup, fetchImpl });
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(reason) });
    expect(calls).toEqual(['https://cdn.example/a.png']);

    const failure = await downloadMedia('https://cdn.example/a.png', { allowPrivate: false, lookup, fetchImpl, maxBytes: 1000, signal: signal() })
      .then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(MediaUnreachable);
    expect((failure as MediaUnreachable).cause).toBeInstanceOf(UnsafeTargetError);
  });

  test('a redirect to another public host is followed', async () => {
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const { fetchImpl, calls } = fakeFetch({
      'https://cdn.example/a.png': redirect('https://img.example/b/photo.jpg?sig=abc'),
      'https://img.example/b/photo.jpg?sig=abc': () => new Response(jpeg, { status: 200, headers: { 'content-type': 'image/jpeg' } }),
    });
    expect(await probeMedia('https://cdn.example/a.png', { allowPrivate: false, lookup, fetchImpl }))
      .toEqual({ ok: true, content_type: 'image/jpeg', kind: 'image' });
    const media = await downloadMedia('https://cdn.example/a.png', { allowPrivate: false, lookup, fetchImpl, maxBytes: 1000, signal: signal() });
    expect(media).toEqual({ bytes: jpeg, content_type: 'image/jpeg', filename: 'a.png' });
    expect(calls).toHaveLength(4);
  });

  test('a server ignoring Range: size from Content-Length; filenames from the path or "media"', async () => {
    const png = (): Response => new Response(PNG, { status: 200, headers: { 'content-type': 'image/png', 'content-length': String(PNG.length) } });
    const { fetchImpl } = fakeFetch({
      'https://img.example/': png,
      'https://img.example/a%20b.png': png,
      'https://img.example/x/..%2F..%2Fetc': png,
    });
    const base2 = { allowPrivate: false, lookup, fetchImpl };
    expect(await probeMedia('https://img.example/', base2)).toEqual({ ok: true, content_type: 'image/png', kind: 'image', bytes: PNG.length });
    const dl = (url: string) => downloadMedia(url, { ...base2, maxBytes: 10_000, signal: signal() });
    expect((await dl('https://img.example/')).filename).toBe('media');
    expect((await dl('https://img.example/a%20b.png')).filename).toBe('a b.png');
    expect((await dl('https://img.example/x/..%2F..%2Fetc')).filename).toBe(`.._.._etc`);
  });
});

describe('downloadMedia', () => {
  const opts = (maxBytes = 1_000_000) => ({ allowPrivate: true, maxBytes, signal: signal() });

  test('downloads a PNG with its filename', async () => {
    const media = await downloadMedia(`${base}/img.png?x=1`, opts());
    expect(media.content_type).toBe('image/png');
    expect(media.filename).toBe('img.png');
    expect(Buffer.from(media.bytes).equals(Buffer.from(PNG))).toBe(true);
  });

  test('sniffs an octet-stream video; the filename comes from the requested link', async () => {
    const media = await downloadMedia(`${base}/clip.bin`, opts());
    expect(media).toMatchObject({ content_type: 'video/mp4', filename: 'clip.bin' });
    expect(media.bytes.length).toBe(MP4.length);
    const viaRedirect = await downloadMedia(`${base}/redirect`, opts());
    expect(viaRedirect.filename).toBe('redirect');
  });

  test('over the cap (declared length) throws MediaUnreachable', async () => {
    await expect(downloadMedia(`${base}/big`, opts(50_000))).rejects.toThrow(MediaUnreachable);
    await expect(downloadMedia(`${base}/big`, opts(50_000))).rejects.toThrow(/larger than 50000 bytes/);
  });

  test('over the cap while streaming (no Content-Length) throws MediaUnreachable', async () => {
    await expect(downloadMedia(`${base}/big-stream`, opts(25_000))).rejects.toThrow(/larger than 25000 bytes/);
    const ok = await downloadMedia(`${base}/big-stream`, opts(200_000));
    expect(ok).toMatchObject({ content_type: 'image/jpeg', filename: 'big-stream' });
  });

  test('a web page, a 404 and a hang throw MediaUnreachable in plain words, without the query string', async () => {
    await expect(downloadMedia(`${base}/page`, opts())).rejects.toThrow(/web page, not a media file/);
    const err = await downloadMedia(`${base}/missing?token=SECRET`, opts()).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(MediaUnreachable);
    expect((err as Error).message).toBe(`The media link ${base}/missing cannot be downloaded: the file does not exist (HTTP 404)`);
    const deadline = new AbortController();
    const hang = nextHang();
    const download = downloadMedia(`${base}/hang`, { allowPrivate: true, maxBytes: 1000, signal: deadline.signal });
    await hang;
    deadline.abort(new DOMException('The deadline passed', 'TimeoutError'));
    await expect(download).rejects.toThrow(/did not finish in time/);
  });

  test('without allowPrivate the 127.0.0.1 link is refused with a private_address message', async () => {
    const err = await downloadMedia(base.replace('http:', 'https:') + '/img.png', { allowPrivate: false, maxBytes: 1000, signal: signal() })
      .then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(MediaUnreachable);
    expect((err as Error).message).toMatch(/private or local address/);
    expect(((err as Error).cause as UnsafeTargetError).reason).toBe('private_address');
  });
});

describe('sniffKind', () => {
  const bytes = (...parts: Array<string | number[]>): Uint8Array =>
    Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

  test.each([
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xdb, 0]), 'image', 'image/jpeg'],
    ['PNG', PNG, 'image', 'image/png'],
    ['GIF89a', bytes('GIF89a', [1, 0]), 'image', 'image/gif'],
    ['GIF87a', bytes('GIF87a', [1, 0]), 'image', 'image/gif'],
    ['WebP', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image', 'image/webp'],
    ['MP4', MP4, 'video', 'video/mp4'],
    ['MOV', bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0]), 'video', 'video/quicktime'],
    ['WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]), 'video', 'video/webm'],
    ['AVIF', bytes([0, 0, 0, 0x1c], 'ftypavif'), 'image', 'image/avif'],
  ])('%s', (_name, data, kind, contentType) => {
    expect(sniffKind(data)).toEqual({ kind, content_type: contentType });
  });

  test.each([
    ['empty', new Uint8Array()],
    ['HTML', bytes('<!doctype html>')],
    ['RIFF WAVE', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['M4A audio', bytes([0, 0, 0, 0x1c], 'ftypM4A ')],
    ['truncated PNG', bytes([0x89, 0x50, 0x4e])],
  ])('%s is not media', (_name, data) => {
    expect(sniffKind(data)).toBeUndefined();
  });
});
