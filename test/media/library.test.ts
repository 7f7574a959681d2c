import { createUploadUrl, finalizeUpload } from '../../shared/app/media/uploads';
import { listMedia } from '../../shared/app/media/library';
import { MEDIA_RETENTION_SECONDS } from '../../shared/domain/media';
import { mediaWorld, put, samples } from './world';

/** The account's media library (MCP list_media) against the embedded DynamoDB and S3, through the real adapters. */
let w: Awaited<ReturnType<typeof mediaWorld>>;
beforeAll(async () => { w = await mediaWorld(); });
afterAll(() => w.stop());

async function uploaded(acc: string): Promise<string> {
  const u = await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: samples.png.length });
  expect(await put(u.upload_url, 'image/png', samples.png)).toBe(200);
  return (await finalizeUpload(w.deps, acc, u.path)).media_url;
}

describe('listMedia', () => {
  it("lists only the account's uploaded, unexpired files, newest first, with media_url, and pages with before", async () => {
    const acc = w.newAccountId();
    const first = await uploaded(acc);
    w.clock.advance(1000);
    await createUploadUrl(w.deps, acc, { content_type: 'image/png', size_bytes: 10 }); // pending: never listed
    w.clock.advance(1000);
    const second = await uploaded(acc);
    await uploaded(w.newAccountId()); // another account's

    const all = await listMedia(w.deps, acc, { limit: 10 });
    expect(all.media.map((m) => m.media_url)).toEqual([second, first]);
    expect(all.media[0]).toMatchObject({ id: expect.stringMatching(/^med_/), content_type: 'image/png', kind: 'image', bytes: samples.png.length });
    expect(all.next_before).toBeNull();

    const page = await listMedia(w.deps, acc, { limit: 1 });
    expect(page.media.map((m) => m.media_url)).toEqual([second]);
    expect((await listMedia(w.deps, acc, { limit: 10, before: page.next_before! })).media.map((m) => m.media_url)).toEqual([first]);

    w.clock.advance((MEDIA_RETENTION_SECONDS + 10) * 1000);
    expect((await listMedia(w.deps, acc, { limit: 10 })).media).toEqual([]);
  });
});
