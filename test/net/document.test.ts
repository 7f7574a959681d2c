import { MediaUnreachable } from '../../shared/ports/networks';
import { downloadDocument } from '../../shared/net/media';
import { FakeServer } from '../../shared/networks/sandbox-kit/fake-server';

/** downloadDocument (LinkedIn document posts): PDFs only, same address guard and byte cap as media. */

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(500, 0x20), Buffer.from('%%EOF')]);
const files: Record<string, { type: string; body: Buffer }> = {
  '/deck.pdf': { type: 'application/pdf', body: PDF },
  '/deck.bin': { type: 'application/octet-stream', body: PDF },
  '/fake.pdf': { type: 'application/pdf', body: Buffer.from('<html>not a pdf</html>') },
  '/page': { type: 'text/html', body: Buffer.from('<html></html>') },
};
const server = new FakeServer((req) => (files[req.path] ? { status: 200, headers: { 'content-type': files[req.path].type }, body: files[req.path].body } : { status: 404, body: 'no' }));
const opts = (allowPrivate = true, maxBytes = 1_000_000) => ({ allowPrivate, maxBytes, signal: AbortSignal.timeout(2000) });

beforeAll(() => server.start());
afterAll(() => server.stop());
beforeEach(() => { server.requests.length = 0; });

it('downloads a PDF (declared or opaque) with its filename', async () => {
  expect(await downloadDocument(`${server.url}/deck.pdf`, opts())).toEqual({ bytes: new Uint8Array(PDF), content_type: 'application/pdf', filename: 'deck.pdf' });
  expect((await downloadDocument(`${server.url}/deck.bin`, opts())).content_type).toBe('application/pdf');
});

it.each([
  ['/fake.pdf', 'the file is not a PDF'],
  ['/page', 'not a PDF'],
  ['/missing.pdf', '404'],
])('%s → MediaUnreachable', async (path, reason) => {
  const err = await downloadDocument(`${server.url}${path}`, opts()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MediaUnreachable);
  expect((err as Error).message).toContain(reason);
});

it('over the byte cap → refused', async () => {
  await expect(downloadDocument(`${server.url}/deck.pdf`, opts(true, 100))).rejects.toThrow(/larger than 100 bytes/);
});

it('a private address is refused by the address guard without any connection', async () => {
  await expect(downloadDocument(`${server.url}/deck.pdf`, opts(false))).rejects.toBeInstanceOf(MediaUnreachable);
  expect(server.requests).toHaveLength(0);
});
