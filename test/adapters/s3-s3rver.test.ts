process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import type { S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3Blobs, s3Client } from '../../shared/adapters/aws/s3-blobs';

/** Against the real embedded S3 stand-in (s3rver), over HTTP. */
describe('S3Blobs on s3rver', () => {
  let server: S3rver;
  let dir: string;
  let client: S3Client;
  let blobs: S3Blobs;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 's3rver-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'media' }] });
    const { port } = await server.run();
    client = s3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}` });
    blobs = new S3Blobs(client, client, 'media');
  });

  afterAll(async () => {
    client?.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('putStream: a multipart upload of streamed chunks (two parts past 5 MiB), downloaded as an attachment through a presigned GET', async () => {
    async function* chunks() {
      for (let i = 0; i < 6; i++) yield `${String(i).repeat(1024 * 1024 - 2)}\r\n`;
    }
    const key = 'exports/acc_1/x/posts.csv';
    expect(await blobs.putStream(key, chunks(), { contentType: 'text/csv; charset=utf-8', downloadName: 'posts.csv' })).toEqual({ bytes: 6 * 1024 * 1024 });
    const res = await fetch(await blobs.presignGet(key, 300, { downloadName: 'posts.csv' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="posts.csv"');
    const text = await res.text();
    expect(text.length).toBe(6 * 1024 * 1024);
    expect(text.split('\r\n').slice(0, 6).map((l) => l[0])).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('uploads through a presigned PUT, then heads, reads a range and deletes', async () => {
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000, 7)]);
    const key = 'acc_1/media/m_1.png';
    const url = await blobs.presignPut(key, 'image/png', bytes.length, 300);

    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: bytes });
    expect(put.status).toBe(200);

    expect(await blobs.head(key)).toEqual({ bytes: 1008, contentType: 'image/png' });
    expect(Array.from(await blobs.readRange(key, 0, 3))).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(Array.from(await blobs.readRange(key, 8, 9))).toEqual([7, 7]);

    const get = await fetch(await blobs.presignGet(key, 60));
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer())).toEqual(bytes);

    await blobs.delete(key);
    expect(await blobs.head(key)).toBeUndefined();
  });

  it('heads a key that never existed as undefined', async () => {
    expect(await blobs.head('nope/never.png')).toBeUndefined();
  });
});
