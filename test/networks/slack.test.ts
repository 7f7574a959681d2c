import { createSlackAdapter, slackMessageId } from '../../shared/networks/slack';
import type { PublishContent } from '../../shared/ports/networks';
import { SlackFake } from '../../shared/networks/slack/simulator';
import { expireOnHang, testContext } from './context';

const fake = new SlackFake();
const adapter = createSlackAdapter();

const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Release <v2> & more', media: [], thread: [], send_key: 'pst_1:slack', ...over });
const creds = () => ({ webhook_url: fake.webhookUrl, team_id: fake.team });
const workspaceUrl = () => `https://slack.com/app_redirect?team=${fake.team}`;

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('slack verify', () => {
  it('checks the URL shape only (no request) and names the workspace', async () => {
    const out = await adapter.verify(testContext({ webhook_url: ` ${fake.webhookUrl}/ ` }).ctx);
    expect(out).toEqual({ ok: true, handle: `slack webhook ${fake.team}`, credentials: { webhook_url: fake.webhookUrl, team_id: fake.team } });
    expect(fake.requests).toHaveLength(0);
  });

  it('a URL that is not an incoming webhook is rejected without echoing it', async () => {
    for (const bad of [`${fake.server.url}/services/${fake.team}/${fake.bot}`, 'ftp://hooks.slack.com/services/T1/B2/C3', 'not a url', '']) {
      const out = await adapter.verify(testContext({ webhook_url: bad }).ctx);
      expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('webhook_url') });
      if (bad) expect(JSON.stringify(out)).not.toContain(bad);
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('slack publish', () => {
  it('POSTs text and an escaped mrkdwn section; id comes from the idempotency key', async () => {
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: slackMessageId('pst_1:slack'), url: workspaceUrl() });
    expect(out.ok && out.id).toMatch(/^slack-[0-9a-f]{32}$/);
    expect(slackMessageId('pst_1:slack')).not.toBe(slackMessageId('pst_2:slack'));
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe(fake.webhookPath);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({
      text: 'Release &lt;v2&gt; &amp; more',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Release &lt;v2&gt; &amp; more' } }],
    });
  });

  it('an image adds an image block', async () => {
    const out = await adapter.publish(content({ text: 'Pic', media: [{ url: 'https://cdn.example.com/a.png', kind: 'image' }] }), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: true, url: workspaceUrl() });
    expect(fake.requests[0].json).toEqual({
      text: 'Pic',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Pic' } },
        { type: 'image', image_url: 'https://cdn.example.com/a.png', alt_text: 'image' },
      ],
    });
  });

  it('a video link is added to the text', async () => {
    await adapter.publish(content({ text: 'Clip', media: [{ url: 'https://cdn.example.com/v.mp4', kind: 'video' }] }), testContext(creds()).ctx);
    expect(fake.requests[0].json).toMatchObject({ text: 'Clip\nhttps://cdn.example.com/v.mp4' });
  });

  it('long text is split into sections of at most 3000 characters, never inside an escape', async () => {
    const text = `${'a'.repeat(2998)}&b${'c'.repeat(3500)}`;
    await adapter.publish(content({ text }), testContext(creds()).ctx);
    const blocks = (fake.requests[0].json as { blocks: Array<{ text: { text: string } }> }).blocks;
    expect(blocks.map((b) => b.text.text.length)).toEqual([2998, 3000, 506]);
    expect(blocks[1].text.text.startsWith('&amp;b')).toBe(true);
    expect(blocks.map((b) => b.text.text).join('')).toBe(text.replace('&', '&amp;'));
  });

  it('invalid_payload is rejected', async () => {
    fake.failNext(SlackFake.text(400, 'invalid_payload'));
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toEqual({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('invalid_payload') });
  });

  it('429 is rate_limited with Retry-After', async () => {
    fake.failNext(SlackFake.text(429, 'rate_limited', { 'retry-after': '12' }));
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 12 });
  });

  it('a revoked webhook (404 no_service), a prohibited or archived channel are reauth, without the secret', async () => {
    const revoked = await adapter.publish(content(), testContext({ webhook_url: `${fake.server.url}/services/${fake.team}/${fake.bot}/OldSecret99` }).ctx);
    expect(revoked).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('no_service') });
    expect(JSON.stringify(revoked)).not.toContain('OldSecret99');
    fake.failNext(SlackFake.text(403, 'action_prohibited'));
    expect(await adapter.publish(content(), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    fake.failNext(SlackFake.text(410, 'channel_is_archived'));
    expect(await adapter.publish(content(), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('5xx is transient', async () => {
    fake.failNext(SlackFake.text(500, 'rollup_error'));
    expect(await adapter.publish(content(), testContext(creds()).ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a hang ends as timeout before the deadline', async () => {
    fake.failNext({ hang: true });
    const { ctx, expire } = testContext(creds());
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

describe('slack check', () => {
  it('text over 40000 is text_too_long and publish sends nothing', async () => {
    const long = content({ text: 'x'.repeat(40001) });
    expect(adapter.check(long, creds())).toEqual({ ok: false, kind: 'rejected', code: 'text_too_long', error: expect.stringMatching(/40000.*40001/) });
    expect(adapter.check(content({ text: 'x'.repeat(40000) }), creds())).toBeUndefined();
    expect(await adapter.publish(long, testContext(creds()).ctx)).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('more than one media item is bad_media', () => {
    const img = { url: 'https://cdn.example.com/a.png', kind: 'image' as const };
    expect(adapter.check(content({ media: [img, img] }), creds())).toMatchObject({ code: 'bad_media' });
  });
});
