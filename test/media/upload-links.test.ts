import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  completeLinkUpload, createUploadLink, linkUploadUrl, openUploadLink, uploadLinkStatus,
} from '../../shared/app/media/upload-links';
import { finalizeUpload } from '../../shared/app/media/uploads';
import { sweepExpiredMedia } from '../../shared/app/media/sweep';
import { sha256Hex } from '../../shared/domain/api-key';
import { appError, mediaWorld, put, samples } from './world';

/** Hosted upload links against the embedded DynamoDB and s3rver. */
let w: Awaited<ReturnType<typeof mediaWorld>>;
beforeAll(async () => { w = await mediaWorld(); });
afterAll(() => w.stop());

const png = { content_type: 'image/png' as const, size_bytes: samples.png.length };

describe('POST /api/media/upload-link', () => {
  it('answers the page URL, the token and expires_in 3600; only the hash of the token is stored', async () => {
    const acc = w.newAccountId();
    const link = await createUploadLink(w.deps, acc, { content_type: 'image/png', note: 'Your logo, please' });
    expect(link).toMatchObject({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_in: 3600, content_type: 'image/png' });
    expect(link.url).toBe(`https://api.test/upload/${link.token}`);
    const stored = await w.deps.uploads.getLink(sha256Hex(link.token));
    expect(stored).toMatchObject({ account_id: acc, content_type: 'image/png', note: 'Your logo, please' });
    const all = await w.table.doc.send(new ScanCommand({ TableName: w.table.tableName }));
    expect(JSON.stringify(all.Items)).not.toContain(link.token);
    expect(await uploadLinkStatus(w.deps, acc, link.token)).toMatchObject({ status: 'open' });
  });
});

describe('the page flow: upload URL → PUT → complete', () => {
  it('uploads once for the account behind the link; the link is then done (410) and finalize gives media_url', async () => {
    const acc = w.newAccountId();
    const { token } = await createUploadLink(w.deps, acc, {});
    expect(await openUploadLink(w.deps, token)).toMatchObject({ account_id: acc });

    const up = await linkUploadUrl(w.deps, token, png);
    expect(up.path.startsWith(`media/${acc}/`)).toBe(true);
    expect(await uploadLinkStatus(w.deps, acc, token)).toMatchObject({ status: 'uploading', path: up.path });
    // before the bytes arrive: 404, and the link stays open
    expect((await appError(() => completeLinkUpload(w.deps, token, up.path))).status).toBe(404);

    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);
    expect(await completeLinkUpload(w.deps, token, up.path)).toEqual({ path: up.path, bytes: samples.png.length, content_type: 'image/png' });
    expect(await completeLinkUpload(w.deps, token, up.path)).toMatchObject({ path: up.path }); // same answer again

    for (const fn of [() => openUploadLink(w.deps, token), () => linkUploadUrl(w.deps, token, png)]) {
      const err = await appError(fn);
      expect([err.status, err.code]).toEqual([410, 'link_used']);
    }
    expect(await uploadLinkStatus(w.deps, acc, token)).toMatchObject({ status: 'uploaded', path: up.path, bytes: samples.png.length });
    await expect(finalizeUpload(w.deps, acc, up.path)).resolves.toMatchObject({ bytes: samples.png.length, kind: 'image' });
    expect((await appError(() => finalizeUpload(w.deps, w.newAccountId(), up.path))).status).toBe(404);

    // a used link outlives its hour, so the agent can still read where the file is; the sweep keeps it
    w.clock.advance(2 * 3600_000);
    await sweepExpiredMedia(w.deps);
    expect(await uploadLinkStatus(w.deps, acc, token)).toMatchObject({ status: 'uploaded', path: up.path });
    expect((await appError(() => openUploadLink(w.deps, token))).code).toBe('link_used');
  });

  it('a retry replaces the upload in progress; only the latest one can complete', async () => {
    const acc = w.newAccountId();
    const { token } = await createUploadLink(w.deps, acc, {});
    const first = await linkUploadUrl(w.deps, token, png);
    const second = await linkUploadUrl(w.deps, token, { content_type: 'image/jpeg', size_bytes: samples.jpeg.length });
    expect(await put(first.upload_url, 'image/png', samples.png)).toBe(200);
    expect(await put(second.upload_url, 'image/jpeg', samples.jpeg)).toBe(200);
    expect((await appError(() => completeLinkUpload(w.deps, token, first.path))).status).toBe(404);
    await expect(completeLinkUpload(w.deps, token, second.path)).resolves.toMatchObject({ content_type: 'image/jpeg' });
  });

  it('a file that is not what the page declared: 400 upload_mismatch, deleted, and the link stays open', async () => {
    const acc = w.newAccountId();
    const { token } = await createUploadLink(w.deps, acc, {});
    const up = await linkUploadUrl(w.deps, token, png);
    expect(await put(up.upload_url, 'image/png', Buffer.concat([samples.jpeg, Buffer.alloc(samples.png.length - samples.jpeg.length)]))).toBe(200);
    expect((await appError(() => completeLinkUpload(w.deps, token, up.path))).code).toBe('upload_mismatch');
    expect(await w.blobs.head(up.path)).toBeUndefined();
    await expect(openUploadLink(w.deps, token)).resolves.toMatchObject({ account_id: acc });
  });

  it('finalize by the account closes the link even when the page never reported completion', async () => {
    const acc = w.newAccountId();
    const { token } = await createUploadLink(w.deps, acc, {});
    const up = await linkUploadUrl(w.deps, token, png);
    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);
    await finalizeUpload(w.deps, acc, up.path);
    expect((await appError(() => openUploadLink(w.deps, token))).code).toBe('link_used');
    await expect(completeLinkUpload(w.deps, token, up.path)).resolves.toMatchObject({ path: up.path });
  });

  it('a link made for one type refuses another (400) and 50 MB + 1 byte (413)', async () => {
    const { token } = await createUploadLink(w.deps, w.newAccountId(), { content_type: 'video/mp4' });
    const wrong = await appError(() => linkUploadUrl(w.deps, token, png));
    expect([wrong.status, wrong.code]).toEqual([400, 'unsupported_media_type']);
    expect((await appError(() => linkUploadUrl(w.deps, token, { content_type: 'video/mp4', size_bytes: 50 * 1024 * 1024 + 1 }))).status).toBe(413);
    await expect(linkUploadUrl(w.deps, token, { content_type: 'video/mp4', size_bytes: 10 })).resolves.toMatchObject({ method: 'PUT' });
  });

  it('at most 10 upload URLs per link an hour', async () => {
    const { token } = await createUploadLink(w.deps, w.newAccountId(), {});
    for (let i = 0; i < 10; i++) await linkUploadUrl(w.deps, token, png);
    const err = await appError(() => linkUploadUrl(w.deps, token, png));
    expect([err.status, err.code]).toEqual([429, 'rate_limited']);
  });
});

describe('unknown, expired and foreign links', () => {
  it('unknown or malformed tokens: 404; expired after 1 hour: 410 link_expired, status expired', async () => {
    for (const bad of ['x', 'A'.repeat(43), '../../etc', '']) {
      expect((await appError(() => openUploadLink(w.deps, bad))).status).toBe(404);
      expect((await appError(() => linkUploadUrl(w.deps, bad, png))).status).toBe(404);
    }
    const acc = w.newAccountId();
    const { token } = await createUploadLink(w.deps, acc, {});
    const up = await linkUploadUrl(w.deps, token, png);
    expect(await put(up.upload_url, 'image/png', samples.png)).toBe(200);
    w.clock.advance(3600_000 + 2_000);
    for (const fn of [() => openUploadLink(w.deps, token), () => linkUploadUrl(w.deps, token, png), () => completeLinkUpload(w.deps, token, up.path)]) {
      const err = await appError(fn);
      expect([err.status, err.code]).toEqual([410, 'link_expired']);
    }
    expect(await uploadLinkStatus(w.deps, acc, token)).toMatchObject({ status: 'expired' });
    // the file that did arrive can still be finalized by the account
    await expect(finalizeUpload(w.deps, acc, up.path)).resolves.toMatchObject({ bytes: samples.png.length });
    expect((await sweepExpiredMedia(w.deps)).links).toBeGreaterThanOrEqual(1);
    expect(await w.deps.uploads.getLink(sha256Hex(token))).toBeUndefined();
  });

  it("another account's link status: 404", async () => {
    const { token } = await createUploadLink(w.deps, w.newAccountId(), {});
    expect((await appError(() => uploadLinkStatus(w.deps, w.newAccountId(), token))).status).toBe(404);
  });
});
