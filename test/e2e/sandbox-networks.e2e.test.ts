import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import { watchContract } from '../contracts/watch';
import { pinterestApiViolations } from '../contracts/pinterest-openapi';
import { ThreadsFake } from '../../shared/networks/threads/simulator';
import { PinterestFake } from '../../shared/networks/pinterest/simulator';
import { GoogleBusinessFake } from '../../shared/networks/google_business/simulator';

/**
 * Threads, Pinterest and Google Business Profile end to end through `npm start`'s sandbox (the local runtime with
 * its defaults): each signs in on its simulated page (Pinterest and Google Business Profile through the picker), and
 * publishes through the API — text, photo, a Threads carousel and video with container polling, a Pinterest board
 * choice and video upload, Google Business Profile event and offer posts — and a Threads profile at its publishing
 * limit is refused before anything is created.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof client>;
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
type Result = { platform: string; ok: boolean; status?: string; code?: string; id?: string; url?: string };

/** What the Pinterest simulator received, and answered, outside Pinterest's OpenAPI document (each test ends with none). */
let pinterestContract: { take(): string[] };

beforeAll(async () => {
  rt = await startRuntime();
  pinterestContract = watchContract(rt.sandbox!.fake('pinterest', PinterestFake).server, pinterestApiViolations, { answers: true });
  api = client(rt.url, await signupThroughApi(rt.url, 'networks@example.com', 'pro'));
}, 120_000);
afterEach(() => expect(pinterestContract.take()).toEqual([]));
afterAll(async () => { await rt?.stop(); });

/** Signs in as a browser would; on a picker page, chooses the account whose button says `choose`. */
async function signIn(platform: string, choose?: string): Promise<string> {
  const start = await api('POST', `/api/oauth/${platform}/url`, {});
  expect([platform, start.status]).toEqual([platform, 200]);
  let next = start.body.url as string;
  const jar = new Map<string, string>();
  let res!: Response;
  for (let i = 0; i < 8 && next; i++) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    res = await fetch(next, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA, ...(cookie ? { cookie } : {}) } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const loc = res.headers.get('location');
    next = loc ? new URL(loc, next).toString() : '';
  }
  const page = await res.text();
  if (!choose) return page;
  const action = /<form method="post" action="([^"]+)"><input type="hidden" name="pick" value="([^"]+)">/.exec(page);
  const button = new RegExp(`name="account" value="([^"]+)">Connect ${choose.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</button>`).exec(page);
  expect([platform, !!action, !!button]).toEqual([platform, true, true]);
  const body = new URLSearchParams({ pick: action![2].replace(/&amp;/g, '&'), account: button![1].replace(/&amp;/g, '&') }).toString();
  const chosen = await fetch(new URL(action![1].replace(/&amp;/g, '&'), rt.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return chosen.text();
}

const results = (res: { body: Record<string, unknown> }) => res.body.results as Result[];
async function settled(postId: string): Promise<Result[]> {
  await rt.drained();
  return (await api('GET', `/api/posts/${postId}`)).body.results as Result[];
}

describe('three more networks in the sandbox of npm start', () => {
  it('GET /api/platforms offers them as OAuth networks, available with the sandbox client ids', async () => {
    const platforms = (await client(rt.url)('GET', '/api/platforms')).body.platforms as Array<{ name: string; oauth: boolean; available: boolean; needs: string; max_media: number }>;
    expect(platforms.filter((p) => ['threads', 'pinterest', 'google_business'].includes(p.name))).toEqual([
      expect.objectContaining({ name: 'threads', oauth: true, available: true, needs: 'text', max_media: 20 }),
      expect.objectContaining({ name: 'pinterest', oauth: true, available: true, needs: 'photo_or_video', max_media: 1 }),
      expect.objectContaining({ name: 'google_business', oauth: true, available: true, needs: 'text', max_media: 1 }),
    ]);
  });

  it('sign-in: Threads connects the profile; Pinterest picks the default board; Google Business Profile picks the location', async () => {
    expect(await signIn('threads')).toMatch(/connected/i);
    expect(await signIn('pinterest', '@acmebakery · Breads')).toMatch(/connected/i);
    expect(await signIn('google_business', 'Acme Bakery Mitte')).toMatch(/connected/i);
    const connections = (await api('GET', '/api/connections')).body.connections as Array<{ platform: string; handle: string }>;
    expect(connections.filter((c) => ['threads', 'pinterest', 'google_business'].includes(c.platform)).map((c) => [c.platform, c.handle]).sort()).toEqual([
      ['google_business', 'Acme Bakery Mitte'], ['pinterest', '@acmebakery · Breads'], ['threads', '@acme.bakery'],
    ]);
  });

  it('text and photo to all three: Threads TEXT and IMAGE containers, a Pin on the default board, a Business Profile post on the chosen location', async () => {
    const text = await api('POST', '/api/post', { platforms: ['threads', 'google_business'], text: 'Open until 8 tonight' });
    expect(results(text).map((r) => [r.platform, r.ok, r.status])).toEqual([['threads', true, 'published'], ['google_business', true, 'published']]);
    const photo = await api('POST', '/api/post', {
      platforms: ['threads', 'pinterest', 'google_business'], text: 'The winter loaf', photo_url: `${rt.url}/sandbox/media/sample.jpg`, photo_alt: 'A dark rye loaf',
      per_platform: { pinterest: { title: 'Winter rye loaf' } },
    });
    expect(results(photo).map((r) => [r.platform, r.ok])).toEqual([['threads', true], ['pinterest', true], ['google_business', true]]);
    const sb = rt.sandbox!;
    const image = [...sb.fake('threads', ThreadsFake).containers.values()].find((c) => c.params.media_type === 'IMAGE');
    expect(image?.params).toMatchObject({ image_url: `${rt.url}/sandbox/media/sample.jpg`, text: 'The winter loaf', alt_text: 'A dark rye loaf' });
    expect(sb.fake('pinterest', PinterestFake).pins.at(-1)?.body).toMatchObject({ board_id: '549755885176', title: 'Winter rye loaf', alt_text: 'A dark rye loaf', media_source: { source_type: 'image_url' } });
    expect(sb.fake('google_business', GoogleBusinessFake).posts.map((p) => p.name)).toEqual(['accounts/1100/locations/2202/localPosts/1', 'accounts/1100/locations/2202/localPosts/2']);
    expect(sb.fake('google_business', GoogleBusinessFake).posts[1].body).toMatchObject({ topicType: 'STANDARD', media: [{ mediaFormat: 'PHOTO', sourceUrl: `${rt.url}/sandbox/media/sample.jpg` }] });
  });

  it('Threads carousel and video: the video containers are polled until FINISHED, then published', async () => {
    const sb = rt.sandbox!;
    const before = sb.fake('threads', ThreadsFake).containers.size;
    const carousel = await api('POST', '/api/post', { platform: 'threads', text: 'Three breads', media: [
      { url: `${rt.url}/sandbox/media/sample.jpg`, type: 'image' }, { url: `${rt.url}/sandbox/media/sample.png`, type: 'image' }, { url: `${rt.url}/sandbox/media/sample.mp4`, type: 'video' },
    ] });
    expect(results(carousel)[0]).toMatchObject({ platform: 'threads', ok: true });
    const video = await api('POST', '/api/post', { platform: 'threads', text: 'Shaping the loaves', video_url: `${rt.url}/sandbox/media/sample.mp4` });
    expect(results(video)[0]).toMatchObject({ platform: 'threads', ok: true });
    expect((await settled(carousel.body.post_id as string))[0]).toMatchObject({ ok: true, status: 'published' });
    expect((await settled(video.body.post_id as string))[0]).toMatchObject({ ok: true, status: 'published' });
    const made = [...sb.fake('threads', ThreadsFake).containers.values()].slice(before);
    expect(made.map((c) => [c.params.media_type, c.params.is_carousel_item ?? null, c.status])).toEqual([
      ['IMAGE', 'true', 'FINISHED'], ['IMAGE', 'true', 'FINISHED'], ['VIDEO', 'true', 'FINISHED'], ['CAROUSEL', null, 'PUBLISHED'], ['VIDEO', null, 'PUBLISHED'],
    ]);
    // each video container answered IN_PROGRESS once before FINISHED: two status reads each
    for (const c of made.filter((m) => m.params.media_type === 'VIDEO')) {
      expect(sb.fake('threads', ThreadsFake).requests.filter((r) => r.method === 'GET' && r.path === `/v1.0/${c.id}`)).toHaveLength(2);
    }
  });

  it('Pinterest: a board the post names, and a video through register, upload and status polling', async () => {
    const chosen = await api('POST', '/api/post', { platform: 'pinterest', text: 'Cakes of the week', photo_url: `${rt.url}/sandbox/media/sample.png`, per_platform: { pinterest: { board_id: '549755885175', link: 'https://example.com/cakes' } } });
    expect(results(chosen)[0]).toMatchObject({ ok: true, status: 'published', url: `${rt.url}/dev/sandbox/inbox#pinterest` });
    const sb = rt.sandbox!;
    expect(sb.fake('pinterest', PinterestFake).pins.at(-1)?.body).toMatchObject({ board_id: '549755885175', link: 'https://example.com/cakes' });
    const video = await api('POST', '/api/post', { platform: 'pinterest', text: 'Kneading', video_url: `${rt.url}/sandbox/media/sample.mp4` });
    expect((await settled(video.body.post_id as string))[0]).toMatchObject({ ok: true, status: 'published' });
    const upload = [...sb.fake('pinterest', PinterestFake).uploads.values()].at(-1)!;
    expect(upload.uploaded).toBe(true);
    expect(sb.fake('pinterest', PinterestFake).pins.at(-1)?.body).toMatchObject({ board_id: '549755885176', media_source: { source_type: 'video_id', media_id: upload.id } });
  });

  it('Google Business Profile: an event post and an offer post; an offer without its event is refused at the API', async () => {
    const event = await api('POST', '/api/post', { platform: 'google_business', text: 'Come taste the stollen', per_platform: { google_business: {
      event: { title: 'Stollen tasting', start: '2026-12-18T18:00', end: '2026-12-18T21:00' }, call_to_action: { type: 'SIGN_UP', url: 'https://example.com/rsvp' },
    } } });
    expect(results(event)[0]).toMatchObject({ ok: true, status: 'published' });
    const offer = await api('POST', '/api/post', { platform: 'google_business', text: '10% off in December', per_platform: { google_business: {
      event: { title: 'December offer', start: '2026-12-01', end: '2026-12-31' }, offer: { coupon_code: 'WINTER10', terms: 'One per customer.' },
    } } });
    expect(results(offer)[0]).toMatchObject({ ok: true, status: 'published' });
    const [e, o] = rt.sandbox!.fake('google_business', GoogleBusinessFake).posts.slice(-2).map((p) => p.body);
    expect(e).toMatchObject({ topicType: 'EVENT', event: { title: 'Stollen tasting', schedule: { startDate: { year: 2026, month: 12, day: 18 }, startTime: { hours: 18, minutes: 0 } } }, callToAction: { actionType: 'SIGN_UP', url: 'https://example.com/rsvp' } });
    expect(o).toMatchObject({ topicType: 'OFFER', offer: { couponCode: 'WINTER10', termsConditions: 'One per customer.' } });
    const refused = await api('POST', '/api/post', { platform: 'google_business', text: 'x', per_platform: { google_business: { offer: { coupon_code: 'X' } } } });
    expect([refused.status, refused.body.code, refused.body.error]).toEqual([400, 'invalid_request', expect.stringContaining('per_platform.google_business.offer')]);
  });

  it('Threads at its publishing limit: refused before any container is created, and queued for after the wait', async () => {
    const sb = rt.sandbox!;
    sb.fake('threads', ThreadsFake).quotaUsage = 250;
    const before = sb.fake('threads', ThreadsFake).containers.size;
    const res = await api('POST', '/api/post', { platform: 'threads', text: 'One too many' });
    expect(results(res)[0]).toMatchObject({ platform: 'threads', ok: true, status: 'scheduled', code: 'rate_limited_deferred' });
    expect(sb.fake('threads', ThreadsFake).containers.size).toBe(before);
    sb.fake('threads', ThreadsFake).quotaUsage = 0;
  });
});
