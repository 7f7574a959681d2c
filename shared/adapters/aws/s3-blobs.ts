import { traceClient } from '../../tracing';
import { bestEffort } from '../../log';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
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

  presignGet(key: string, expiresInSeconds: number, opts: { downloadName?: string } = {}): Promise<string> {
    return getSignedUrl(this.presignClient, new GetObjectCommand({
      Bucket: this.bucket, Key: key, ...(opts.downloadName ? { ResponseContentDisposition: attachment(opts.downloadName) } : {}),
    }), { expiresIn: expiresInSeconds });
  }

  /** Multipart upload: chunks are gathered into 5 MiB parts (S3's minimum part size), each sent as it fills. */
  async putStream(key: string, chunks: AsyncIterable<string | Uint8Array>, opts: { contentType: string; downloadName?: string }): Promise<{ bytes: number }> {
    const created = await this.client.send(new CreateMultipartUploadCommand({
      Bucket: this.bucket, Key: key, ContentType: opts.contentType, ...(opts.downloadName ? { ContentDisposition: attachment(opts.downloadName) } : {}),
    }));
    const uploadId = created.UploadId!;
    const parts: Array<{ ETag: string; PartNumber: number }> = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    const flush = async () => {
      const PartNumber = parts.length + 1;
      const out = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: Buffer.concat(pending) }));
      parts.push({ ETag: out.ETag!, PartNumber });
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of chunks) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
        pending.push(buf);
        pendingBytes += buf.length;
        bytes += buf.length;
        if (pendingBytes >= PART_BYTES) await flush();
      }
      if (pendingBytes > 0 || parts.length === 0) await flush();
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return { bytes };
    } catch (err) {
      await bestEffort('multipart upload abort', this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })), { key });
      throw err;
    }
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

  /** CopyObject: the source is `<bucket>/<key>`, URL-encoded (S3's x-amz-copy-source). */
  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: toKey, CopySource: `${this.bucket}/${encodeURIComponent(fromKey).replace(/%2F/g, '/')}` }));
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

const PART_BYTES = 5 * 1024 * 1024;

const attachment = (name: string) => `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`;

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
