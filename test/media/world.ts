import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { startTestTable, testDeps } from '../support/deps';
import { startS3, type Service } from '../../infra/local/services';
import { S3Blobs, s3Client } from '../../shared/adapters/aws/s3-blobs';
import { newId } from '../../shared/domain/ids';
import { AppError } from '../../shared/domain/errors';

/**
 * Media tests' world: the embedded DynamoDB (dynalite) and the embedded S3-compatible server (s3rver, with the
 * local CORS rule) behind the real adapters, and test deps whose clock can be moved (30 days in a test).
 */
export async function mediaWorld() {
  const { table, stop: stopTable } = await startTestTable();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-s3-'));
  const s3: Service = await startS3(dir, ['media']);
  const client: S3Client = s3Client({ region: 'us-east-1', endpoint: s3.endpoint });
  const blobs = new S3Blobs(client, client, 'media');
  const t = testDeps(table, { blobs });
  return {
    ...t, table, blobs, s3Endpoint: s3.endpoint,
    newAccountId: () => newId('acc', Date.now()),
    stop: async () => {
      client.destroy();
      await s3.stop();
      await stopTable();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` and answers the AppError it throws (fails when it does not throw one). */
export async function appError(fn: () => Promise<unknown>): Promise<AppError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

/** A PUT of `bytes` to a presigned URL, as a client would send it. */
export async function put(url: string, contentType: string, bytes: Uint8Array): Promise<number> {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: new Uint8Array(bytes) });
  await res.arrayBuffer();
  return res.status;
}

/** Small files whose first bytes are the real magic numbers of each type. */
export const samples = {
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 1)]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 2)]),
  gif: Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(50, 3)]),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x40, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(60, 4)]),
  mp4: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(80, 5)]),
  mov: Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  '), Buffer.alloc(80, 6)]),
  oldMov: Buffer.concat([Buffer.from([0, 0, 0, 0x08]), Buffer.from('wide'), Buffer.alloc(80, 7)]),
  webm: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(70, 8)]),
  text: Buffer.from('<html><body>not an image</body></html>'),
};

/** A real, decodable 2×2 PNG (for the browser test and the fake network). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=', 'base64');
