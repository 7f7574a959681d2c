import { client, startRuntime } from '../support/runtime';
import { captureOutput } from '../support/log-capture';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { WebhookReceiver } from '../webhooks/receiver';
import type { LocalRuntime } from '../../infra/local/runtime';

let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();
const rx = new WebhookReceiver();
let capture: ReturnType<typeof captureOutput>;

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start(), rx.start()]);
  capture = captureOutput();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, LOG_LEVEL: 'debug', POWERTOOLS_METRICS_DISABLED: 'false' });
});
afterAll(async () => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  await rt?.stop();
  capture?.restore();
  await Promise.all([telegram.stop(), discord.stop(), rx.stop()]);
});

describe('logs of a full end-to-end run (Powertools Logger, correlation, no secrets)', () => {
  it('every secret the run used is absent from the log, and one correlation id follows a post from request to webhook', async () => {
    const secrets: string[] = [telegram.token, discord.webhookToken];
    const anon = client(rt.url);
    expect((await anon('POST', '/api/signup', { email: 'ops-log@example.com' })).status).toBe(200);
    const outbox = JSON.parse((await anon('GET', '/dev/outbox')).text) as Array<{ to: string; links: string[] }>;
    const link = outbox.find((m) => m.to === 'ops-log@example.com')!.links[0];
    secrets.push(new URL(link).searchParams.get('token')!);
    const key = (await anon('POST', '/api/signup/confirm', { token: new URL(link).searchParams.get('token') })).body.api_key as string;
    secrets.push(key);
    const api = client(rt.url, key);

    const second = await api('POST', '/api/keys', { name: 'ci' });
    secrets.push(second.body.api_key as string);
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
    const wrongToken = await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: '999:wrong_secret_token_value', chat_id: '@acmenews' } });
    expect(wrongToken.status).toBe(400);
    secrets.push('999:wrong_secret_token_value');

    const hook = await api('POST', '/api/webhooks', { url: rx.url('/events') });
    expect(hook.status).toBe(201);
    secrets.push(hook.body.secret as string);
    const webhookId = (hook.body.webhook as { id: string }).id;
    const rotated = await api('POST', `/api/webhooks/${webhookId}/rotate`);
    secrets.push(rotated.body.secret as string);
    const connectLink = await api('POST', '/api/connect-link', {});
    expect(connectLink.status).toBe(200);
    secrets.push(connectLink.body.token as string);
    const uploadLink = await api('POST', '/api/media/upload-link', {});
    expect(uploadLink.status).toBe(200);
    secrets.push(uploadLink.body.token as string);
    expect((await client(rt.url, 'svc_live_' + 'A'.repeat(40))('GET', '/api/me')).status).toBe(401);
    secrets.push('svc_live_' + 'A'.repeat(40));

    discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const res = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'Observability day' });
    expect(res.status).toBe(200);
    const postId = res.body.post_id as string;
    await rt.drained(); // the publish and webhook workers are done: both deliveries made, their lines logged
    expect(rx.received).toHaveLength(2);

    const text = capture.text();
    expect(secrets.filter((s) => typeof s === 'string' && s.length >= 8)).toHaveLength(secrets.length);
    for (const secret of secrets) expect({ secret, hits: text.split(secret).length - 1 }).toEqual({ secret, hits: 0 });

    const lines = capture.json().filter((l) => l.service === 'social-publishing' && l._aws === undefined);
    expect(lines.length).toBeGreaterThan(15);
    for (const l of lines) expect(l).toMatchObject({ level: expect.any(String), message: expect.any(String), timestamp: expect.any(String) });

    // request id → post id → network → delivery id: every line about this post carries the request's id
    const postRequest = lines.find((l) => l.message === 'request' && l.route === 'post-post' && l.post_id === postId)!;
    expect(postRequest).toBeDefined();
    const correlation = postRequest.correlation_id as string;
    expect(correlation).toBe(postRequest.request_id);
    const aboutPost = lines.filter((l) => l.post_id === postId);
    expect(new Set(aboutPost.map((l) => l.correlation_id))).toEqual(new Set([correlation]));
    const workerLines = aboutPost.filter((l) => l.platform !== undefined && l.message_id !== undefined);
    expect(new Set(workerLines.map((l) => l.platform))).toEqual(new Set(['telegram', 'discord']));
    const deliveryLines = lines.filter((l) => typeof l.delivery_id === 'string' && l.correlation_id === correlation);
    expect(new Set(deliveryLines.map((l) => l.delivery_id))).toEqual(new Set(rx.received.map((r) => r.headers['service-delivery'])));
  });

  it('writes CloudWatch EMF lines for one published and one failed post, by network and code, with the post id', async () => {
    const key = await (await import('../support/runtime')).signupThroughApi(rt.url, 'ops-emf@example.com');
    const api = client(rt.url, key);
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
    const published = await api('POST', '/api/post', { platforms: ['telegram'], text: 'Metrics: this one goes out' });
    expect(published.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true })]);
    discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const failedPost = await api('POST', '/api/post', { platforms: ['discord'], text: 'Metrics: this one is refused' });
    expect(failedPost.body.results).toEqual([expect.objectContaining({ platform: 'discord', ok: false, code: 'rejected' })]);

    type Emf = Record<string, unknown> & { _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> } };
    const emf = (postId: string) => capture.json().filter((l): l is Emf => typeof l._aws === 'object' && l.post_id === postId);
    const names = (lines: Emf[]) => lines.map((l) => l._aws.CloudWatchMetrics[0].Metrics[0].Name).sort();

    // the worker records the outcome (and counts it) right after settling the result the API answered with
    await rt.drained();
    const ok = emf(published.body.post_id as string);
    expect(names(ok)).toEqual(['NetworkLatency', 'PostsPublished']);
    const pub = ok.find((l) => l.PostsPublished !== undefined)!;
    expect(pub).toMatchObject({ service: 'social-publishing', platform: 'telegram', PostsPublished: 1, correlation_id: expect.any(String) });
    expect(pub._aws.CloudWatchMetrics[0]).toEqual({ Namespace: 'SocialPublishing', Dimensions: [['service', 'platform']], Metrics: [{ Name: 'PostsPublished', Unit: 'Count' }] });
    expect(ok.find((l) => l.NetworkLatency !== undefined)).toMatchObject({ platform: 'telegram', NetworkLatency: expect.any(Number) });

    const bad = emf(failedPost.body.post_id as string);
    expect(names(bad)).toEqual(['NetworkLatency', 'PostsFailed', 'PostsFailedByCode']);
    expect(bad.find((l) => l.PostsFailedByCode !== undefined)).toMatchObject({ platform: 'discord', code: 'rejected', PostsFailedByCode: 1 });
    expect(bad.find((l) => l.PostsFailedByCode !== undefined)!._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'platform', 'code']]);
    expect(bad.find((l) => l.PostsFailed !== undefined)).toMatchObject({ platform: 'discord', PostsFailed: 1 });

    const all = capture.json().filter((l): l is Emf => typeof l._aws === 'object');
    expect(all.some((l) => l.ColdStart === 1 && typeof l.function_name === 'string')).toBe(true);
  });
});
