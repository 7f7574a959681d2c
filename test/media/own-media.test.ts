import { networkLimits } from '../../shared/networks/descriptor-limits';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { publishingWorld } from '../support/publishing';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { startS3, type Service } from '../../infra/local/services';
import { S3Blobs, s3Client } from '../../shared/adapters/aws/s3-blobs';
import type { MediaGateway } from '../../shared/ports/media-gateway';
import { createUploadUrl, finalizeUpload } from '../../shared/app/media/uploads';
import { ownFile, withOwnMedia } from '../../shared/app/media/own-media';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { connect } from '../../shared/app/connections';
import { MediaUnreachable } from '../../shared/ports/networks';
import { put, samples } from './world';

/**
 * Own uploads in the publish path: media_url is recognised without an HTTP probe (api.test does not even resolve),
 * and workers read the bytes from the blob store.
 */
let w: Awaited<ReturnType<typeof publishingWorld>>;
let s3: Service;
let dir: string;
const mastodon = new MastodonFake();

beforeAll(async () => {
  w = await publishingWorld();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-media-'));
  s3 = await startS3(dir, ['media']);
  const client = s3Client({ region: 'us-east-1', endpoint: s3.endpoint });
  w.deps = w.rebuild({ blobs: new S3Blobs(client, client, 'media') });
  await mastodon.start();
});
afterAll(async () => {
  await w.stop();
  await mastodon.stop();
  await s3.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function uploaded(accountId: string, type: 'image/png' | 'video/mp4', bytes: Buffer) {
  const up = await createUploadUrl(w.deps, accountId, { content_type: type, size_bytes: bytes.length });
  expect(await put(up.upload_url, type, bytes)).toBe(200);
  return finalizeUpload(w.deps, accountId, up.path);
}

/** A gateway that records what reaches it. */
function recordingInner() {
  const calls: string[] = [];
  const inner: MediaGateway = {
    probe: async (url) => { calls.push(`probe ${url}`); return { ok: false, reason: 'inner' }; },
    download: async (url) => { calls.push(`download ${url}`); throw new MediaUnreachable('inner'); },
    checkTarget: async (url) => { calls.push(`check ${url}`); },
    fetch: async () => { throw new Error('not used'); },
  };
  return { inner, calls };
}

describe('withOwnMedia', () => {
  it('answers own media from the stored item and the blob store; everything else goes to the inner gateway', async () => {
    const acc = await w.newAccount();
    const { media_url } = await uploaded(acc.id, 'image/png', samples.png);
    const { inner, calls } = recordingInner();
    const gw = withOwnMedia(inner, w.deps);

    expect(await gw.probe(media_url)).toEqual({ ok: true, content_type: 'image/png', kind: 'image', bytes: samples.png.length });
    const file = await gw.download(media_url, new AbortController().signal);
    expect(Buffer.from(file.bytes)).toEqual(samples.png);
    expect(file).toMatchObject({ content_type: 'image/png', filename: expect.stringMatching(/^med_[0-9A-Z]{26}\.png$/) });
    expect(calls).toEqual([]);

    const others = ['https://cdn.example.com/media/x.png', media_url.replace('https://api.test', 'https://api.test.evil.com'), 'not a url'];
    for (const url of others) await gw.probe(url);
    await gw.checkTarget('https://mastodon.example');
    expect(calls).toEqual([...others.map((u) => `probe ${u}`), 'check https://mastodon.example']);
  });

  it('own URLs that are unknown, forged or expired fail without leaving the service', async () => {
    const acc = await w.newAccount();
    const { media_url } = await uploaded(acc.id, 'image/png', samples.png);
    const { inner, calls } = recordingInner();
    const gw = withOwnMedia(inner, w.deps);
    const forged = media_url.replace(/-[0-9A-Za-z]{22}\./, `-${'Z'.repeat(22)}.`);
    for (const url of [forged, 'https://api.test/media/nothing.png', 'https://api.test/media/a/b.png']) {
      const res = await gw.probe(url);
      if (url.endsWith('/a/b.png')) continue; // not a media file name: treated as a foreign link
      expect(res).toEqual({ ok: false, reason: expect.stringContaining('does not exist') });
    }
    await expect(gw.download(forged, new AbortController().signal)).rejects.toBeInstanceOf(MediaUnreachable);
    expect(calls).toEqual(['probe https://api.test/media/a/b.png']);

    w.clock.advance(31 * 86_400_000);
    try {
      expect(await gw.probe(media_url)).toMatchObject({ ok: false });
      await expect(gw.download(media_url, new AbortController().signal)).rejects.toBeInstanceOf(MediaUnreachable);
    } finally {
      w.clock.advance(-31 * 86_400_000);
    }
  });

  it('ownFile matches only this deployment’s /media/ prefix', () => {
    const deps = { settings: { publicBaseUrl: 'https://x.example/base' } };
    expect(ownFile(deps, 'https://x.example/base/media/f.png')).toBe('f.png');
    expect(ownFile(deps, 'https://x.example/base/media/f.png?x=1')).toBe('f.png');
    expect(ownFile(deps, 'https://x.example/media/f.png')).toBeUndefined();
    expect(ownFile(deps, 'http://x.example/base/media/f.png')).toBeUndefined();
  });
});

describe('publishing with media_url', () => {
  beforeEach(() => { w.telegram.reset(); mastodon.reset(); });

  it('Telegram gets media_url as the photo; no HTTP probe is made (the host does not resolve)', async () => {
    const acc = await w.newAccount();
    await w.connectTelegram(w.deps, acc);
    const { media_url } = await uploaded(acc.id, 'image/png', samples.png);
    const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'look', photo_url: media_url }, networkLimits()), { source: 'api', wait: true });
    expect(res.results[0]).toMatchObject({ platform: 'telegram', ok: true, status: 'published' });
    const send = w.telegram.requests.find((r) => r.path.endsWith('/sendPhoto'))!;
    expect(send.json).toMatchObject({ photo: media_url, caption: 'look' });
  });

  it('a video media_url is known to be a video even when sent as media[] without a type', async () => {
    const acc = await w.newAccount();
    await w.connectTelegram(w.deps, acc);
    const { media_url } = await uploaded(acc.id, 'video/mp4', samples.mp4);
    const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'clip', media: [{ url: media_url }] }, networkLimits()), { source: 'api', wait: true });
    expect(res.results[0]).toMatchObject({ ok: true });
    expect(w.telegram.requests.some((r) => r.path.endsWith('/sendVideo'))).toBe(true);
  });

  it('Mastodon: the worker reads the bytes from the blob store and uploads them to the network', async () => {
    const acc = await w.newAccount();
    await connect(w.deps, acc, { platform: 'mastodon', credentials: { instance_url: mastodon.url, access_token: 'good-token' } });
    const { media_url } = await uploaded(acc.id, 'image/png', samples.png);
    const res = await publishPost(w.deps, acc, validatePost({ platform: 'mastodon', text: 'from storage', photo_url: media_url }, networkLimits()), { source: 'api', wait: true });
    expect(res.results[0]).toMatchObject({ platform: 'mastodon', ok: true, status: 'published' });
    const [upload] = mastodon.find('POST', '/api/v2/media');
    const form = await new Response(new Uint8Array(upload.body), { headers: { 'content-type': String(upload.headers['content-type']) } }).formData();
    const file = form.get('file') as File;
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(samples.png);
  });

  it('an expired media_url fails that network with media_unreachable before anything is sent', async () => {
    const acc = await w.newAccount();
    await w.connectTelegram(w.deps, acc);
    const { media_url } = await uploaded(acc.id, 'image/png', samples.png);
    w.clock.advance(31 * 86_400_000);
    try {
      const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'late', photo_url: media_url }, networkLimits()), { source: 'api', wait: true });
      expect(res.results[0]).toMatchObject({ ok: false, code: 'media_unreachable', error: expect.stringContaining('older than 30 days') });
      expect(w.telegram.requests.filter((r) => r.path.endsWith('/sendPhoto'))).toHaveLength(0);
    } finally {
      w.clock.advance(-31 * 86_400_000);
    }
  });
});
