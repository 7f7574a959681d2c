import { connectionsBody } from '../../shared/http/dashboard/settings-views';
import { connectionView, healthOf } from '../../shared/app/oauth/health';
import type { Connection } from '../../shared/ports/publishing';

/** The dashboard's connections page says each connection's health (GET /api/connections' health) in words. */

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const DAY = 86_400_000;
const NOTICE = 7 * DAY;

const connection = (platform: Connection['platform'], over: Partial<Connection>): Connection => ({
  id: `con_${platform}`, account_id: 'acc_1', brand_id: 'brd_1', platform, handle: `@${platform}`, label: platform, status: 'active',
  connected_at: new Date(NOW - 30 * DAY).toISOString(), credentials_enc: 'x', ...over,
} as Connection);

function stateCells(connections: Connection[]): Record<string, string> {
  const data = {
    brands: [{ id: 'brd_1', name: 'Main', connections: connections.map((c) => connectionView(c, healthOf(c, NOW, NOTICE))) }],
  } as unknown as Parameters<typeof connectionsBody>[0];
  const html = connectionsBody(data, 'csrf', undefined);
  return Object.fromEntries([...html.matchAll(/<\/td><td>@([a-z_]+)<\/td><td>(.*?)<\/td><td>/g)].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '')]));
}

describe('connection health on the dashboard', () => {
  it('healthy, expiring with its date, a lost sign-in and an unreachable network each read as such', () => {
    const cells = stateCells([
      connection('threads', { lapses_at: NOW + 30 * DAY }),
      connection('pinterest', { lapses_at: NOW + 3 * DAY }),
      connection('google_business', { status: 'reauth_required' }),
      connection('linkedin', { network_down_since: '2026-11-27T10:15:00.000Z', network_error: 'ETIMEDOUT' }),
    ]);
    expect(cells).toEqual({
      threads: 'Connected',
      pinterest: 'Sign-in ends 2026-11-30: make a reconnect link',
      google_business: 'Needs a new sign-in',
      linkedin: 'Network unreachable since 2026-11-27 10:15 UTC',
    });
  });

  it('the expiring date is machine-readable too', () => {
    const data = { brands: [{ id: 'brd_1', name: 'Main', connections: [connectionView(connection('threads', { lapses_at: NOW + DAY }), healthOf(connection('threads', { lapses_at: NOW + DAY }), NOW, NOTICE))] }] } as unknown as Parameters<typeof connectionsBody>[0];
    expect(connectionsBody(data, 'csrf', undefined)).toContain(`<time datetime="${new Date(NOW + DAY).toISOString()}">2026-11-28</time>`);
  });
});
