process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { S3Blobs, s3Client } from '../../shared/adapters/aws/s3-blobs';

const s3 = mockClient(S3Client);
beforeEach(() => s3.reset());

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

function blobs(): S3Blobs {
  const client = new S3Client({ region: 'us-east-1', credentials });
  return new S3Blobs(client, client, 'media-bucket');
}

describe('S3Blobs presigning', () => {
  // Presigning does not send a request, so it runs on an unmocked client built like production.
  const presigner = new S3Blobs(s3Client({ region: 'eu-west-1' }), presignClientWithCreds(), 'media-bucket');

  function presignClientWithCreds(): S3Client {
    const client = s3Client({ region: 'eu-west-1' });
    client.config.credentials = async () => credentials;
    return client;
  }

  it('signs a PUT with the content type and length and the expiry', async () => {
    const url = new URL(await presigner.presignPut('acc_1/media/abc.png', 'image/png', 12345, 900));
    expect(url.hostname).toBe('media-bucket.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/acc_1/media/abc.png');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host']);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('x-id')).toBe('PutObject');
    // no checksum of an empty body signed into the URL (S3 would refuse every real upload)
    expect(url.searchParams.has('x-amz-checksum-crc32')).toBe(false);
    expect(url.searchParams.has('x-amz-sdk-checksum-algorithm')).toBe(false);
  });

  it('signs a GET', async () => {
    const url = new URL(await presigner.presignGet('acc_1/media/abc.png', 300));
    expect(url.pathname).toBe('/acc_1/media/abc.png');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('x-id')).toBe('GetObject');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  });

  it('uses path style against a local endpoint', async () => {
    const local = new S3Blobs(s3Client({ region: 'us-east-1' }), s3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4569' }), 'media');
    const url = new URL(await local.presignPut('k/1.jpg', 'image/jpeg', 10, 60));
    expect(url.origin).toBe('http://127.0.0.1:4569');
    expect(url.pathname).toBe('/media/k/1.jpg');
  });
});

describe('s3Client', () => {
  it("sets path style, s3rver's dummy credentials and on-demand checksums for a local endpoint", async () => {
    const client = s3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4569' });
    expect(client.config.forcePathStyle).toBe(true);
    expect(await client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
  });

  it('keeps virtual-host addressing in AWS', async () => {
    const client = s3Client({ region: 'us-east-1' });
    expect(client.config.forcePathStyle).toBeFalsy();
    expect(await client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
  });
});

describe('S3Blobs calls', () => {
  it('head gives size and type', async () => {
    s3.on(HeadObjectCommand).resolves({ ContentLength: 2048, ContentType: 'video/mp4' });
    expect(await blobs().head('a/b.mp4')).toEqual({ bytes: 2048, contentType: 'video/mp4' });
    expect(s3.commandCalls(HeadObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'media-bucket', Key: 'a/b.mp4' });
  });

  it('head of a missing object is undefined', async () => {
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }));
    expect(await blobs().head('missing')).toBeUndefined();
  });

  it('head answers undefined for any 404', async () => {
    const err = Object.assign(new Error('UnknownError'), { name: 'Unknown', $metadata: { httpStatusCode: 404 } });
    s3.on(HeadObjectCommand).rejects(err);
    expect(await blobs().head('missing')).toBeUndefined();
  });

  it('head propagates other errors', async () => {
    const err = Object.assign(new Error('Forbidden'), { name: 'Forbidden', $metadata: { httpStatusCode: 403 } });
    s3.on(HeadObjectCommand).rejects(err);
    await expect(blobs().head('x')).rejects.toThrow('Forbidden');
  });

  it('readRange asks for an inclusive byte range and returns the bytes', async () => {
    // The SDK's streaming body, reduced to what the adapter uses.
    const body = { transformToByteArray: async () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47]) } as unknown as GetObjectCommandOutput['Body'];
    s3.on(GetObjectCommand).resolves({ Body: body });
    const bytes = await blobs().readRange('a/b.png', 0, 3);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(bytes)).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'media-bucket', Key: 'a/b.png', Range: 'bytes=0-3' });
  });

  it('delete removes the object', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await blobs().delete('a/b.png');
    expect(s3.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toEqual({ Bucket: 'media-bucket', Key: 'a/b.png' });
  });
});
