import { traceClient } from '../../tracing';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobHead, Blobs } from '../../ports/blobs';

/**
 * The Blobs port on S3. `presignClient` signs the URLs handed to API clients (it may carry a different, public
 * endpoint); `client` does the server-side calls. Presigned PUTs sign content-type and content-length, so S3
 * refuses an upload of another type or size.
 */
export class S3Blobs implements Blobs {
  constructor(
    private readonly client: S3Client,
    private readonly presignClient: S3Client,
    private readonly bucket: string,
  ) {}

  presignPut(key: string, contentType: string, contentLength: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(
      this.presignClient,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: contentLength }),
      { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-type', 'content-length']) },
    );
  }

  presignGet(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.presignClient, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  async head(key: string): Promise<BlobHead | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { bytes: out.ContentLength ?? 0, ...(out.ContentType !== undefined ? { contentType: out.ContentType } : {}) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async readRange(key: string, start: number, endInclusive: number): Promise<Uint8Array> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${endInclusive}` }));
    return out.Body ? await out.Body.transformToByteArray() : new Uint8Array(0);
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

function isNotFound(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/**
 * An S3 client. Checksums are computed only when an operation requires them: with the SDK default
 * ('WHEN_SUPPORTED') presigned PUT URLs carry `x-amz-checksum-crc32` of an empty body, and S3 then rejects every
 * real upload; the embedded s3rver would also store streamed bodies with chunk framing. With `endpoint` (s3rver
 * locally) it uses path-style addressing and s3rver's built-in dummy key pair (S3RVER/S3RVER: s3rver answers 403
 * InvalidAccessKeyId to any other access key id, though it does not check signatures).
 */
export function s3Client(opts: { region: string; endpoint?: string }): S3Client {
  return traceClient(new S3Client({
    region: opts.region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(opts.endpoint
      ? { endpoint: opts.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
      : {}),
  }));
}
