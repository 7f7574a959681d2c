import net from 'node:net';
import { publishingWorld } from '../support/publishing';
import { bulkSchedule, createSchedule } from '../../shared/app/schedule/create';
import { createRecurring } from '../../shared/app/schedule/recurring';
import { RecurringRequestSchema, SchedulePatchSchema, ScheduleRequestSchema } from '../../shared/app/schedule/request';
import { listSchedules, patchSchedule, getSchedule } from '../../shared/app/schedule/manage';
import { mediaGateway } from '../../shared/net/media-gateway';
import { withOwnMedia } from '../../shared/app/media/own-media';
import { connectionContext } from '../../shared/app/security/contexts';
import { defaultBrandId } from '../../shared/app/signup';
import { usage } from '../../shared/app/usage';
import { newId } from '../../shared/domain/ids';
import type { Deps } from '../../shared/app/deps';
import type { Account } from '../../shared/ports/store';
import type { PlatformName } from '../../shared/domain/platforms';

/**
 * Schedule, bulk and recurring check a connection's stored credential URLs (Discord/Slack webhook,
 * Mastodon instance, WordPress site) at creation, the way POST /api/connect checks them: a private address is refused
 * at once (400 invalid_credentials), and nothing is ever contacted. The loopback listener below stands for the
 * private target and must see no connection.
 */
let w: Awaited<ReturnType<typeof publishingWorld>>;
let guarded: Deps;
let listener: net.Server;
let port = 0;
let contacted = 0;

beforeAll(async () => {
  w = await publishingWorld();
  guarded = { ...w.deps, media: withOwnMedia(mediaGateway(false), w.deps) };
  listener = net.createServer((socket) => { contacted++; socket.destroy(); });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await w.stop();
});

/** A connection as stored by an earlier connect (e.g. before the check, or DNS that changed since). */
async function storeConnection(account: Account, platform: PlatformName, credentials: Record<string, string>) {
  const brand_id = defaultBrandId(account.id);
  await w.deps.connections.put({
    id: newId('con', w.clock.now()), account_id: account.id, brand_id, platform, handle: `${platform} test`, label: `Default · ${platform}`,
    status: 'active', connected_at: new Date(w.clock.now()).toISOString(),
    credentials_enc: await w.deps.cipher.encrypt(JSON.stringify(credentials), connectionContext({ account_id: account.id, brand_id, platform }, 'credentials')),
  });
}

let n = 0;
const inMinutes = (m: number) => new Date(w.clock.now() + m * 60_000).toISOString();
const scheduledCount = async (account: Account) => (await usage(w.deps, account)).scheduled_at_a_time.used;

describe('schedule, bulk and recurring check credential URLs at creation', () => {
  it('a stored Discord webhook on a loopback address is refused now (400 invalid_credentials), nothing contacted or kept', async () => {
    const acc = await w.newAccount('pro');
    await storeConnection(acc, 'discord', { webhook_url: `https://127.0.0.1:${port}/api/webhooks/1/secret-token` });

    const err = await createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: `private hook ${++n}`, run_at: inMinutes(30) })).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, code: 'invalid_credentials', details: { platforms: ['discord'], results: [expect.objectContaining({ platform: 'discord', code: 'invalid_credentials', fix: expect.any(String) })] } });
    expect((err as Error).message).toMatch(/webhook_url/);
    expect((err as Error).message).not.toContain('secret-token');

    const bulk = await bulkSchedule(guarded, acc, { posts: [{ platform: 'discord', text: `bulk private ${++n}`, run_at: inMinutes(40) }] });
    expect(bulk).toMatchObject({ accepted: 0, rejected: 1, errors: [{ row: 1, code: 'invalid_credentials', platforms: ['discord'] }] });

    await expect(createRecurring(guarded, acc, RecurringRequestSchema.parse({ platform: 'discord', text: `rec private ${++n}`, cron: '0 9 * * 1', timezone: 'UTC' })))
      .rejects.toMatchObject({ status: 400, code: 'invalid_credentials' });

    expect((await listSchedules(w.deps, acc.id, { limit: 50 })).schedules).toEqual([]);
    expect(await w.deps.recurring.list(acc.id)).toEqual([]);
    expect(await scheduledCount(acc)).toBe(0);
    expect(contacted).toBe(0);
  });

  it('a host name that resolves to loopback is refused too (Mastodon instance_url: localhost)', async () => {
    const acc = await w.newAccount('pro');
    await storeConnection(acc, 'mastodon', { instance_url: `https://localhost:${port}`, access_token: 'tok' });
    await expect(createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'mastodon', text: `private instance ${++n}`, run_at: inMinutes(30) })))
      .rejects.toMatchObject({ status: 400, code: 'invalid_credentials', details: { platforms: ['mastodon'] } });
    expect(contacted).toBe(0);
  });

  it('a stored Nostr relay on a private address is refused too; public relays (or the defaults) are accepted', async () => {
    const acc = await w.newAccount('pro');
    const nsec = 'nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5';
    await storeConnection(acc, 'nostr', { nsec, relays: `wss://93.184.216.34,wss://127.0.0.1:${port}` });
    const err = await createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'nostr', text: `private relay ${++n}`, run_at: inMinutes(30) })).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, code: 'invalid_credentials', details: { platforms: ['nostr'] } });
    expect((err as Error).message).toContain(`relay wss://127.0.0.1:${port}`);
    await storeConnection(acc, 'nostr', { nsec, relays: 'wss://93.184.216.34' });
    expect(await createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'nostr', text: `public relay ${++n}`, run_at: inMinutes(30) }))).toMatchObject({ status: 'scheduled' });
    await storeConnection(acc, 'nostr', { nsec });
    expect(await createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'nostr', text: `default relays ${++n}`, run_at: inMinutes(30) }))).toMatchObject({ status: 'scheduled' });
    expect(contacted).toBe(0);
  });

  it('a public credential address is accepted; a PATCH after the connection moved to a private one is refused', async () => {
    const acc = await w.newAccount('pro');
    await storeConnection(acc, 'discord', { webhook_url: 'https://93.184.216.34/api/webhooks/1/abc' });
    const s = await createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: `public hook ${++n}`, run_at: inMinutes(30) }));
    expect(s).toMatchObject({ status: 'scheduled', platforms: ['discord'] });
    expect(await scheduledCount(acc)).toBe(1);

    // the connection is replaced by one on a private address: changing the post's content checks it again
    await storeConnection(acc, 'discord', { webhook_url: `https://127.0.0.1:${port}/api/webhooks/1/abc` });
    await expect(patchSchedule(guarded, acc, s.schedule_id, SchedulePatchSchema.parse({ text: `changed ${++n}` })))
      .rejects.toMatchObject({ status: 400, code: 'invalid_credentials' });
    expect(await getSchedule(w.deps, acc.id, s.schedule_id)).toMatchObject({ status: 'scheduled', text: expect.stringMatching(/^public hook/) });
    expect(contacted).toBe(0);
  });

  it('a bulk to one webhook checks its address once; a refusal is not remembered, a pass only for a minute', async () => {
    const acc = await w.newAccount('pro');
    await storeConnection(acc, 'discord', { webhook_url: 'https://hooks.example.net/api/webhooks/1/abc' });
    const checked: string[] = [];
    let privateNow = false;
    const counting: Deps = {
      ...guarded,
      media: { ...guarded.media, checkTarget: async (url) => { checked.push(url); if (privateNow) await guarded.media.checkTarget('https://10.0.0.1/'); } },
    };
    const rows = Array.from({ length: 25 }, (_, i) => ({ platform: 'discord', text: `bulk ${i} ${++n}`, run_at: inMinutes(60 + i) }));
    expect(await bulkSchedule(counting, acc, { posts: rows })).toMatchObject({ accepted: 25, rejected: 0 });
    expect(checked.filter((u) => u.startsWith('https://hooks.example.net'))).toHaveLength(1);

    // another request, a new host answer: refused, and asked again each time while it is refused
    privateNow = true;
    const fresh: Deps = { ...counting };
    for (let i = 0; i < 2; i++) {
      await expect(createSchedule(fresh, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: `now private ${++n}`, run_at: inMinutes(30) })))
        .rejects.toMatchObject({ code: 'invalid_credentials' });
    }
    expect(checked.filter((u) => u.startsWith('https://hooks.example.net'))).toHaveLength(3);
    // a pass is remembered for a minute by the same deps (recurring and PATCH use the container's), then asked again
    privateNow = false;
    const recurring = (text: string) => createRecurring(fresh, acc, RecurringRequestSchema.parse({ platform: 'discord', text, cron: '0 9 * * 1', timezone: 'UTC' }));
    await recurring(`public again ${++n}`);
    await recurring(`remembered ${++n}`);
    expect(checked.filter((u) => u.startsWith('https://hooks.example.net'))).toHaveLength(4);
    w.clock.advance(61_000);
    await recurring(`asked again ${++n}`);
    expect(checked.filter((u) => u.startsWith('https://hooks.example.net'))).toHaveLength(5);
  });

  it('with ALLOW_PRIVATE_TARGETS (tests, local demos) a loopback credential URL is accepted', async () => {
    const acc = await w.newAccount('pro');
    await storeConnection(acc, 'discord', { webhook_url: `http://127.0.0.1:${port}/api/webhooks/1/abc` });
    expect(await createSchedule(w.deps, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: `local demo ${++n}`, run_at: inMinutes(30) })))
      .toMatchObject({ status: 'scheduled' });
    expect(contacted).toBe(0);
  });
});
