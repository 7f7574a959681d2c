/** Object storage for media (S3 in AWS, the embedded S3-compatible server locally). */
export interface BlobHead {
  bytes: number;
  contentType?: string;
}
export interface Blobs {
  presignPut(key: string, contentType: string, contentLength: number, expiresInSeconds: number): Promise<string>;
  /** `downloadName`: the link downloads the object as an attachment with that file name. */
  presignGet(key: string, expiresInSeconds: number, opts?: { downloadName?: string }): Promise<string>;
  /**
   * Writes an object from a stream of chunks, holding at most one part (5 MiB) in memory (multipart upload);
   * answers its size. Used for exports that must not be built in memory (dashboard CSV).
   */
  putStream(key: string, chunks: AsyncIterable<string | Uint8Array>, opts: { contentType: string; downloadName?: string }): Promise<{ bytes: number }>;
  head(key: string): Promise<BlobHead | undefined>;
  readRange(key: string, start: number, endInclusive: number): Promise<Uint8Array>;
  /** Copies an object inside the bucket, server side (the bytes never pass through the function). */
  copy(fromKey: string, toKey: string): Promise<void>;
  delete(key: string): Promise<void>;
}
