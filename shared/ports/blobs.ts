/** Object storage for media (S3 in AWS, the embedded S3-compatible server locally). */
export interface BlobHead {
  bytes: number;
  contentType?: string;
}
export interface Blobs {
  presignPut(key: string, contentType: string, contentLength: number, expiresInSeconds: number): Promise<string>;
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
  head(key: string): Promise<BlobHead | undefined>;
  readRange(key: string, start: number, endInclusive: number): Promise<Uint8Array>;
  delete(key: string): Promise<void>;
}
