import { mockClient } from 'aws-sdk-client-mock';
import { CopyObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createUploadUrl, finalizeUpload, mediaDownloadUrl } from '../../shared/app/media/uploads';
import { sweepExpiredMedia } from '../../shared/app/media/sweep';
import { markFor, setBranding } from '../../shared/app/dashboard/branding';
import { brandingLogoDownloadUrl } from '../../shared/app/dashboard/branding-logo';
import { connectPage } from '../../shared/app/connect-page';
import { issueConnectLink } from '../../shared/app/connect-link/issue';
import { connectPageHtml } from '../../shared/http/pages/connect-page';
import { defaultBrandId } from '../../shared/app/signup';
import { S3Blobs } from '../../shared/adapters/aws/s3-blobs';
import type { Account } from '../../shared/ports/store';
import type { MediaContentType } from '../../shared/domain/media';
import { appError, mediaWorld, put, samples } from '../media/world';

/** A branding's logo is copied out of the expiring uploads into branding/ storage (embedded DynamoDB and s3rver). */
let w: Awaited<ReturnType<typeof mediaWorld>>;
beforeAll(async () => { w = await mediaWorld(); });
afterAll(() => w.stop());

async function proAccount(): Promise<Account> {
  const id = w.newAccountId();
  const account: Account = { id, email: `${id.toLowerCase()}@example.com`, plan: 'pro', verified: true, created_at: new Date(w.clock.now()).toISOString(), brand_count: 1 };
  await w.deps.accounts.createAccount(account);
  await w.deps.brands.create({ id: defaultBrandId(id), account_id: id, name: 'Default', timezone: 'UTC', slots: [], created_at: account.created_at });
  return account;
}

async function upload(accountId: string, type: MediaContentType, bytes: Uint8Array): Promise<string> {
  const up = await createUploadUrl(w.deps, accountId, { content_type: type, size_bytes: bytes.length });
  expect(await put(up.upload_url, type, bytes)).toBe(200);
  return (await finalizeUpload(w.deps, accountId, up.path)).media_url;
}

const bytesAt = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

describe('branding logo', () => {
  it('an uploaded logo is copied to branding/ and still shows on the connect page after the upload is deleted', async () => {
    const account = await proAccount();
    const mediaUrl = await upload(account.id, 'image/png', samples.png);

    const b = await setBranding(w.deps, account, { scope: 'account', display_name: 'Acme', logo_url: mediaUrl });
    expect(b.logo_url).toMatch(new RegExp(`^https://api\\.test/branding/${account.id}-[0-9a-f]{32}\\.png$`));
    expect(b.logo_key).toBe(`branding/${account.id}/${/-([0-9a-f]{32})\.png$/.exec(b.logo_url!)![1]}.png`);
    expect(await w.blobs.head(b.logo_key!)).toEqual(expect.objectContaining({ bytes: samples.png.length }));

    // 31 days on, the upload's item and object are swept; the logo is not
    w.clock.advance(31 * 86_400_000);
    expect(await sweepExpiredMedia(w.deps)).toMatchObject({ media: 1 });
    expect((await appError(() => mediaDownloadUrl(w.deps, mediaUrl.split('/').pop()!))).status).toBe(404);

    const link = await issueConnectLink(w.deps, account.id, defaultBrandId(account.id));
    const model = await connectPage(w.deps, link.token);
    const mark = await markFor(w.deps, account.id, model.brand.id);
    const html = connectPageHtml(model, link.url, w.clock.now(), undefined, mark);
    expect(html).toContain(`<img src="${b.logo_url}" alt="" height="32"><b>Acme</b>`);
    const served = await brandingLogoDownloadUrl(w.deps, b.logo_url!.split('/').pop()!);
    expect(Buffer.from(await bytesAt(served))).toEqual(samples.png);
  });

  it('saving the form again keeps the stored logo; a new logo replaces it and deletes the old copy', async () => {
    const account = await proAccount();
    const first = await setBranding(w.deps, account, { scope: 'account', display_name: 'Acme', logo_url: await upload(account.id, 'image/png', samples.png) });
    const again = await setBranding(w.deps, account, { scope: 'account', display_name: 'Acme 2', logo_url: first.logo_url });
    expect([again.logo_url, again.logo_key]).toEqual([first.logo_url, first.logo_key]);
    expect(await w.blobs.head(first.logo_key!)).toBeDefined();

    const next = await setBranding(w.deps, account, { scope: 'account', display_name: 'Acme', logo_url: await upload(account.id, 'image/gif', samples.gif) });
    expect(next.logo_key).toMatch(/\.gif$/);
    expect(await w.blobs.head(first.logo_key!)).toBeUndefined();
    expect((await appError(() => brandingLogoDownloadUrl(w.deps, first.logo_url!.split('/').pop()!))).status).toBe(404);
    // an external https logo is kept as given, and the stored copy it replaces is deleted
    const external = await setBranding(w.deps, account, { scope: 'account', display_name: 'Acme', logo_url: 'https://cdn.acme.example/logo.png' });
    expect(external).toMatchObject({ logo_url: 'https://cdn.acme.example/logo.png' });
    expect(external.logo_key).toBeUndefined();
    expect(await w.blobs.head(next.logo_key!)).toBeUndefined();
  });

  it('refuses (400 invalid_logo, nothing saved) a video, another account\'s upload or stored logo, a plain http link', async () => {
    const account = await proAccount();
    const other = await proAccount();
    const video = await upload(account.id, 'video/mp4', samples.mp4);
    const theirs = await upload(other.id, 'image/png', samples.png);
    const theirLogo = (await setBranding(w.deps, other, { scope: 'account', display_name: 'Other', logo_url: await upload(other.id, 'image/png', samples.png) })).logo_url!;
    for (const logo_url of [video, theirs, theirLogo, 'http://cdn.example/logo.png', 'https://api.test/branding/nope.png']) {
      const err = await appError(() => setBranding(w.deps, account, { scope: 'account', display_name: 'Acme', logo_url }));
      expect([err.status, err.code]).toEqual([400, 'invalid_logo']);
    }
    expect(await w.deps.branding.get(account.id, 'account')).toBeUndefined();
  });

  it('a name that is not a stored logo is 404', async () => {
    for (const file of ['x.png', `${w.newAccountId()}-${'0'.repeat(32)}.png`, '../media/a.png']) {
      expect((await appError(() => brandingLogoDownloadUrl(w.deps, file))).code).toBe('not_found');
    }
  });
});

describe('S3Blobs.copy (AWS adapter)', () => {
  it('sends CopyObject inside the bucket with the source as <bucket>/<key>', async () => {
    const s3 = mockClient(S3Client);
    s3.on(CopyObjectCommand).resolves({});
    try {
      await new S3Blobs(new S3Client({ region: 'us-east-1' }), new S3Client({ region: 'us-east-1' }), 'media-bucket').copy('media/acc_1/med_2.png', 'branding/acc_1/ab.png');
      expect(s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input)).toEqual([
        { Bucket: 'media-bucket', Key: 'branding/acc_1/ab.png', CopySource: 'media-bucket/media/acc_1/med_2.png' },
      ]);
    } finally {
      s3.restore();
    }
  });
});
