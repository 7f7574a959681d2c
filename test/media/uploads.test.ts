import { createUploadUrl, finalizeUpload, mediaDownloadUrl } from '../../shared/app/media/uploads';
import { sweepExpiredMedia } from '../../shared/app/media/sweep';
import { MAX_UPLOAD_BYTES, MEDIA_RETENTION_SECONDS, parseMediaPath, type MediaContentType } from '../../shared/domain/media';
import { appError, mediaWorld, put, samples } from './world';

/** Uploads against the embedded DynamoDB and the embedded S3-compatible server (s3rver), through the real adapters. */
let w: Awaited<ReturnType<typeof mediaWorld>>;
beforeAll(async () => { w = await mediaWorld(); });
afterAll(() => w.stop());

describe('POST /api/media/upload-url', () => {
  it('answers a presigned PUT that signs content-type and content-length, and a path under the account', async () => {
    const acc = w.newAccountId();
    const before = Math.floor(w.clock.now() / 1000);
    const res = await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: 1234 });
    expect(res).toMatchObject({ method: 'PUT', expires_in: 900, headers: { 'content-type': 'image/png' } });
    expect(res.path).toMatch(new RegExp(`^media/${acc}/med_[0-9A-Z]{26}\\.png$`));

    const url = new URL(res.upload_url);
    expect(url.origin).toBe(w.s3Endpoint);
    expect(url.pathname).toBe(`/media/${res.path}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type', 'host']));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    // no checksum of an empty body baked into the URL (S3 would then refuse every real upload)
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);

    const item = await w.deps.uploads.get(parseMediaPath(res.path)!.mediaId);
    expect(item).toMatchObject({ account_id: acc, key: res.path, content_type: 'image/png', size_bytes: 1234, state: 'pending' });
    expect(item!.expires_at - before).toBeGreaterThanOrEqual(MEDIA_RETENTION_SECONDS);
    expect(item!.expires_at - before).toBeLessThanOrEqual(MEDIA_RETENTION_SECONDS + 2);
    expect(item!.secret).toMatch(/^[0-9A-Za-z]{22}$/);
  });

  it('accepts exactly 50 MB; one byte more is 413 too_large and stores nothing', async () => {
    const acc = w.newAccountId();
    await expect(createUploadUrl(w.deps, acc, { content_type: 'video/mp4', size_bytes: MAX_UPLOAD_BYTES })).resolves.toMatchObject({ method: 'PUT' });
    const err = await appError(() => createUploadUrl(w.deps, acc, { content_type: 'video/mp4', size_bytes: MAX_UPLOAD_BYTES + 1 }));
    expect([err.status, err.code]).toEqual([413, 'too_large']);
    expect(err.details).toEqual({ max_bytes: 52_428_800 });
  });
});

describe('GET /api/media/finalize', () => {
  it('404 before the PUT; after a PUT with the signed type and size: media_url and bytes (and again the same)', async () => {
    const acc = w.newAccountId();
    const up = await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: samples.png.length });
    const before = await appError(() => finalizeUpload(w.deps, acc, up.path));
    expect([before.status, before.code]).toEqual([404, 'not_found']);

    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);
    const done = await finalizeUpload(w.deps, acc, up.path);
    expect(done).toMatchObject({ bytes: samples.png.length, content_type: 'image/png', kind: 'image' });
    expect(done.media_url).toMatch(/^https:\/\/api\.test\/media\/med_[0-9A-Z]{26}-[0-9A-Za-z]{22}\.png$/);
    expect(await finalizeUpload(w.deps, acc, up.path)).toEqual(done);
    expect((await w.deps.uploads.get(parseMediaPath(up.path)!.mediaId))!.state).toBe('uploaded');
  });

  it('a PUT of another content type or size is refused at finalize (400 upload_mismatch, object deleted); the right PUT then works', async () => {
    const acc = w.newAccountId();
    const up = await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: samples.png.length });

    expect(await put(up.upload_url, 'image/jpeg', samples.png)).toBe(200); // s3rver does not check the signature
    const wrongType = await appError(() => finalizeUpload(w.deps, acc, up.path));
    expect([wrongType.status, wrongType.code]).toEqual([400, 'upload_mismatch']);
    expect(wrongType.message).toContain('stored as image/jpeg, not image/png');
    expect(await w.blobs.head(up.path)).toBeUndefined();

    expect(await put(up.upload_url, 'image/png', samples.png.subarray(0, 50))).toBe(200);
    const wrongSize = await appError(() => finalizeUpload(w.deps, acc, up.path));
    expect(wrongSize.code).toBe('upload_mismatch');
    expect(wrongSize.details).toMatchObject({ declared: { size_bytes: samples.png.length }, found: { bytes: 50 } });
    expect(await w.blobs.head(up.path)).toBeUndefined();

    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);
    await expect(finalizeUpload(w.deps, acc, up.path)).resolves.toMatchObject({ bytes: samples.png.length });
  });

  it('sniffs the first bytes: declared PNG that is a JPEG, or a web page, is refused and deleted', async () => {
    const acc = w.newAccountId();
    for (const [bytes, looksLike] of [[samples.jpeg, 'image/jpeg'], [samples.text, null]] as const) {
      const up = await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: bytes.length });
      expect(await put(up.upload_url, 'image/png', bytes)).toBe(200);
      const err = await appError(() => finalizeUpload(w.deps, acc, up.path));
      expect([err.status, err.code]).toEqual([400, 'upload_mismatch']);
      expect(err.details).toMatchObject({ declared: { content_type: 'image/png' }, found: { content_type: 'image/png', looks_like: looksLike } });
      expect(await w.blobs.head(up.path)).toBeUndefined();
      // the item stays pending: finalize answers 404 until a correct file arrives
      expect((await appError(() => finalizeUpload(w.deps, acc, up.path))).status).toBe(404);
    }
  });

  it.each([
    ['image/jpeg', samples.jpeg], ['image/gif', samples.gif], ['image/webp', samples.webp], ['video/mp4', samples.mp4],
    ['video/quicktime', samples.mov], ['video/quicktime', samples.oldMov], ['video/mp4', samples.mov], ['video/webm', samples.webm],
  ] as Array<[MediaContentType, Buffer]>)('accepts %s whose first bytes match', async (type, bytes) => {
    const acc = w.newAccountId();
    const up = await createUploadUrl(w.deps, acc, { content_type: type, size_bytes: bytes.length });
    expect(await put(up.upload_url, type, bytes)).toBe(200);
    await expect(finalizeUpload(w.deps, acc, up.path)).resolves.toMatchObject({ content_type: type, kind: type.split('/')[0] });
  });

  it('refuses a video declared as an image and a WebM declared as MP4', async () => {
    const acc = w.newAccountId();
    for (const [type, bytes] of [['image/gif', samples.mp4], ['video/mp4', samples.webm]] as Array<[MediaContentType, Buffer]>) {
      const up = await createUploadUrl(w.deps, acc, { content_type: type, size_bytes: bytes.length });
      expect(await put(up.upload_url, type, bytes)).toBe(200);
      expect((await appError(() => finalizeUpload(w.deps, acc, up.path))).code).toBe('upload_mismatch');
    }
  });

  it("another account's path, a path that does not parse, or an unknown id: 404, and nothing is deleted", async () => {
    const owner = w.newAccountId();
    const other = w.newAccountId();
    const up = await createUploadUrl(w.deps, owner, { content_type: 'image/png', size_bytes: samples.png.length });
    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);

    const forged = up.path.replace(owner, other);
    for (const [acc, path] of [[other, up.path], [other, forged], [owner, 'media/../x.png'], [owner, up.path.replace('.png', '.jpg')],
      [owner, `media/${owner}/med_01J00000000000000000000000.png`], [owner, '']]) {
      const err = await appError(() => finalizeUpload(w.deps, acc, path));
      expect([path, err.status, err.code]).toEqual([path, 404, 'not_found']);
    }
    expect(await w.blobs.head(up.path)).toEqual({ bytes: samples.png.length, contentType: 'image/png' });
    await expect(finalizeUpload(w.deps, owner, up.path)).resolves.toMatchObject({ bytes: samples.png.length });
  });
});

describe('media_url and the 30 days', () => {
  it('media_url resolves to a short-lived link to the bytes; a wrong secret, a pending upload or junk: 404', async () => {
    const acc = w.newAccountId();
    const up = await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: samples.png.length });
    const pendingFile = `${parseMediaPath(up.path)!.mediaId}-${(await w.deps.uploads.get(parseMediaPath(up.path)!.mediaId))!.secret}.png`;
    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);
    expect((await appError(() => mediaDownloadUrl(w.deps, pendingFile))).status).toBe(404);

    const { media_url } = await finalizeUpload(w.deps, acc, up.path);
    const file = media_url.split('/').pop()!;
    expect(file).toBe(pendingFile);
    const link = new URL(await mediaDownloadUrl(w.deps, file));
    expect(link.searchParams.get('X-Amz-Expires')).toBe('600');
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(samples.png);

    const wrongSecret = file.replace(/-([0-9A-Za-z])/, (_, c: string) => `-${c === 'a' ? 'b' : 'a'}`);
    for (const bad of [wrongSecret, file.replace('.png', '.jpg'), 'med_x.png', '../etc/passwd', '']) {
      expect((await appError(() => mediaDownloadUrl(w.deps, bad))).status).toBe(404);
    }
  });

  it('after 30 days: finalize and media_url answer 404, and the sweep deletes the object and the item', async () => {
    const acc = w.newAccountId();
    const up = await createUploadUrl(w.deps, acc, { content_type: 'image/gif', size_bytes: samples.gif.length });
    expect(await put(up.upload_url, 'image/gif', samples.gif)).toBe(200);
    const { media_url } = await finalizeUpload(w.deps, acc, up.path);
    const pending = await createUploadUrl(w.deps, acc, { content_type: 'image/gif', size_bytes: samples.gif.length });

    w.clock.advance(29 * 86_400_000);
    expect(await sweepExpiredMedia(w.deps)).toMatchObject({ media: 0 });
    await expect(finalizeUpload(w.deps, acc, up.path)).resolves.toMatchObject({ media_url });

    w.clock.advance(86_400_000 + 5_000);
    expect((await appError(() => finalizeUpload(w.deps, acc, up.path))).status).toBe(404);
    expect((await appError(() => mediaDownloadUrl(w.deps, media_url.split('/').pop()!))).status).toBe(404);
    expect(await w.blobs.head(up.path)).toBeDefined(); // still stored until the sweep (S3 lifecycle in AWS)

    const swept = await sweepExpiredMedia(w.deps);
    expect(swept.media).toBeGreaterThanOrEqual(2); // this upload and the pending one made with it
    expect(await w.blobs.head(up.path)).toBeUndefined();
    expect(await w.deps.uploads.get(parseMediaPath(up.path)!.mediaId)).toBeUndefined();
    expect(await w.deps.uploads.get(parseMediaPath(pending.path)!.mediaId)).toBeUndefined();
    expect(await sweepExpiredMedia(w.deps)).toEqual({ media: 0, links: 0 });
  });
});
