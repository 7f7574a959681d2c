import { createFacebookAdapter } from '../../shared/networks/facebook';
import { createInstagramAdapter } from '../../shared/networks/instagram';
import type { PublishContent } from '../../shared/ports/networks';
import { MetaKindsFake } from '../../shared/networks/facebook/simulator';
import { ctxWithSleeps, testContext } from './context';

/** Meta post kinds: Facebook Reels and first comments; Instagram Stories (async container) and first comments. */

describe('facebook', () => {
  const fake = new MetaKindsFake();
  let creds: Record<string, string>;
  const adapter = () => createFacebookAdapter({ apiBase: fake.url });
  const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Fresh bread today', media: [], thread: [], send_key: 'k:facebook', ...over });
  const video = { url: 'https://cdn.example.com/reel.mp4', kind: 'video' as const };
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    const user = fake.userToken();
    creds = { access_token: user, page_id: '101', page_name: 'Acme Bakery', page_access_token: fake.pageToken(user, '101') };
  });

  it('reel: start, hosted-file upload with the OAuth header and file_url, finish PUBLISHED with the description', async () => {
    const out = await adapter().publish(content({ media: [video], options: { reel: true } }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '6001', url: 'https://www.facebook.com/reel/6001' });
    expect(fake.calls).toEqual(['POST /101/video_reels', `POST ${fake.uploadPath('6001')}`, 'POST /101/video_reels']);
    const [start, upload, finish] = fake.requests;
    expect(fake.params(start)).toEqual({ upload_phase: 'start', access_token: creds.page_access_token });
    expect(upload.headers.authorization).toBe(`OAuth ${creds.page_access_token}`);
    expect(upload.headers.file_url).toBe(video.url);
    expect(upload.body.length).toBe(0);
    expect(fake.params(finish)).toEqual({ upload_phase: 'finish', video_id: '6001', video_state: 'PUBLISHED', description: 'Fresh bread today', access_token: creds.page_access_token });
    expect(fake.reels.get('6001')).toEqual({ file_url: video.url, published: true, description: 'Fresh bread today' });
  });

  it('reel: Facebook refusing the upload → a failure, nothing published', async () => {
    fake.failNext(`POST ${fake.uploadPath('6001')}`, { status: 400, body: { error: { message: 'Failed to fetch the video from file_url', type: 'OAuthException', code: 100 } } });
    const out = await adapter().publish(content({ media: [video], options: { reel: true } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.reels.get('6001')?.published).toBe(false);
  });

  it('first comment under a text post: POST /{post}/comments {message}', async () => {
    const out = await adapter().publish(content({ first_comment: 'Order at acme.example' }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, id: '101_9001', comment_id: '101_9001_c1' });
    const comment = fake.requests.find((r) => r.path.endsWith('/101_9001/comments'))!;
    expect(fake.params(comment)).toEqual({ message: 'Order at acme.example', access_token: creds.page_access_token });
  });

  it('a refused comment keeps the published post', async () => {
    fake.failNext('POST /101_9001/comments', { status: 403, body: { error: { message: '(#200) Requires pages_manage_engagement', type: 'OAuthException', code: 200 } } });
    const out = await adapter().publish(content({ first_comment: 'hi' }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published', id: '101_9001' });
    expect(out.ok && out.comment_id).toBeUndefined();
  });
});

describe('instagram', () => {
  const fake = new MetaKindsFake();
  const ig = '17841400000000001';
  let creds: Record<string, string>;
  const adapter = (reserveMs = 50) => createInstagramAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs, resumeAfterSeconds: 20 });
  const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Morning batch', media: [{ url: 'https://cdn.example.com/s.mp4', kind: 'video' }], thread: [], send_key: 'k:ig', ...over });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    const user = fake.userToken();
    creds = { access_token: user, ig_user_id: ig, username: 'acme.bakery', page_id: '101', page_access_token: fake.pageToken(user, '101') };
  });

  it('story: a STORIES container (no caption) polled until FINISHED, then published', async () => {
    fake.containerPolls = 1;
    const { ctx, sleeps } = ctxWithSleeps(creds);
    const out = await adapter().publish(content({ options: { story: true } }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const [create] = fake.requests;
    expect(fake.params(create)).toEqual({ media_type: 'STORIES', video_url: 'https://cdn.example.com/s.mp4', access_token: creds.page_access_token });
    expect(fake.calls.filter((c) => c.startsWith('GET /179'))).toHaveLength(2);
    expect(sleeps).toEqual([50]);
  });

  it('story still processing at the deadline → processing; resume publishes it and then posts the first comment', async () => {
    fake.containerPolls = 100;
    const story = content({ options: { story: true }, first_comment: 'Link in bio' });
    const first = await adapter(1850).publish(story, ctxWithSleeps(creds).ctx);
    expect(first).toMatchObject({ ok: true, status: 'processing', resume: { after_seconds: 20, state: { step: 'container' } } });
    const state = (first as { resume: { state: Record<string, string> } }).resume.state;
    expect(fake.requests.some((r) => r.path.endsWith('/comments'))).toBe(false);
    fake.finishProcessing(state.container_id);
    const done = await adapter().resume!(story, state, ctxWithSleeps(creds).ctx);
    expect(done).toMatchObject({ ok: true, status: 'published', comment_id: expect.stringMatching(/_c1$/) });
    const comment = fake.requests.find((r) => r.path.endsWith('/comments'))!;
    expect(comment.path).toBe(`/v${comment.path.split('/v')[1].split('/')[0]}/${(done as { id: string }).id}/comments`);
    expect(fake.params(comment)).toEqual({ message: 'Link in bio', access_token: creds.page_access_token });
  });

  it('a failed story container → a failure, nothing published and no comment', async () => {
    fake.containerError = 'ERROR';
    const out = await adapter().publish(content({ options: { story: true }, first_comment: 'x' }), ctxWithSleeps(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests.some((r) => r.path.endsWith('/comments') || r.path.endsWith('/media_publish'))).toBe(false);
  });
});
