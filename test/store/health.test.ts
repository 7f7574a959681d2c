import { publishingWorld } from '../support/publishing';
import { connectionHealth } from '../../shared/app/connections';
import type { ServiceEvent } from '../../shared/ports/publishing';

let w: Awaited<ReturnType<typeof publishingWorld>>;
const events: ServiceEvent[] = [];
beforeAll(async () => {
  w = await publishingWorld();
  const inner = w.deps.events;
  w.deps = w.rebuild({ events: { record: async (e) => { events.push(e); await inner.record(e); }, listForPost: (id) => inner.listForPost(id) } });
});
afterAll(() => w.stop());

describe('GET /api/connect/{platform}/health for a credential network', () => {
  it('a refused stored credential marks the connection and records connection.reauth_required once; a good one reactivates it', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    expect(await connectionHealth(w.deps, acc, 'telegram')).toMatchObject({ ok: true, status: 'active' });

    const token = w.telegram.token;
    w.telegram.token = '999:revoked';
    try {
      const first = await connectionHealth(w.deps, acc, 'telegram');
      expect(first).toMatchObject({ ok: false, status: 'reauth_required', code: 'reauth_required', what: expect.any(String), fix: expect.any(String) });
      await connectionHealth(w.deps, acc, 'telegram');
      const reauth = events.filter((e) => e.type === 'connection.reauth_required' && e.account_id === acc.id);
      expect(reauth).toHaveLength(1);
      expect(reauth[0].data).toMatchObject({ platform: 'telegram', reconnect_url: expect.stringMatching(/\/connect\/[\w-]+$/) });
      expect(reauth[0].data).not.toHaveProperty('post_id');
    } finally {
      w.telegram.token = token;
    }
    expect(await connectionHealth(w.deps, acc, 'telegram')).toMatchObject({ ok: true, status: 'active' });
  });
});
