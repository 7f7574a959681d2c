import { activityCsv, activityPage, exportActivity, CSV_HEADER } from '../../shared/app/dashboard/activity';
import { csvCell, csvLine } from '../../shared/domain/csv';
import { newId } from '../../shared/domain/ids';
import type { NetworkRecord, PostRecord, PostStore } from '../../shared/ports/publishing';
import type { Blobs } from '../../shared/ports/blobs';
import type { ApprovalStore } from '../../shared/ports/approvals';
import type { AnalyticsStore } from '../../shared/ports/analytics';
import type { PlatformName } from '../../shared/domain/platforms';
import { emptyMetrics, type PostAnalytics } from '../../shared/domain/analytics';

/** No post held for approval (the `held` filter's source). */
const noApprovals = { list: async () => [] } as unknown as ApprovalStore;
/** Figures for every published network of an odd-numbered minute (the rest untracked), and the reads asked for. */
const asked: number[] = [];
const analytics = {
  forPosts: async (_acc: string, refs: Array<{ post_id: string; platform: PlatformName }>) => {
    asked.push(refs.length);
    return refs.filter((_, i) => i % 2 === 0).map((r): PostAnalytics => ({
      post_id: r.post_id, account_id: 'acc_1', brand_id: 'brd_a', platform: r.platform, network_post_id: '1', published_at: '2026-10-01T00:00:00.000Z',
      metrics: { ...emptyMetrics(), likes: 3 }, source: { likes: 'reactions' }, status: 'synced', fetched_at: '2026-10-02T00:00:00.000Z',
    }));
  },
} as unknown as AnalyticsStore;
import { parseCsv } from '../support/csv';
import { ManualClock } from '../support/clock';

/** A post store over generated posts that counts what was read (no DynamoDB: this is about memory, not storage). */
function generatedPosts(count: number, startMs = Date.UTC(2026, 9, 1)) {
  const posts: PostRecord[] = Array.from({ length: count }, (_, i) => ({
    id: newId('pst', startMs + i * 60_000), account_id: 'acc_1', brand_id: i % 2 ? 'brd_a' : 'brd_b', brand_name: i % 2 ? 'Acme' : 'Beta',
    source: i % 3 ? 'api' : 'schedule', idempotency_key: null, platforms: ['telegram'], created_at: new Date(startMs + i * 60_000).toISOString(),
    payload: { text: i === 0 ? '=HYPERLINK("http://evil")' : `post, "number" ${i}\nsecond line`, media: [], per_platform: {} },
  }));
  const newestFirst = [...posts].reverse();
  const index = new Map(posts.map((p, i) => [p.id, i]));
  const reads = { gets: 0 };
  const store = {
    list: async (_acc: string, limit: number, before?: string) => newestFirst.filter((p) => !before || p.id < before).slice(0, limit),
    networksOf: async (wanted: Array<{ id: string }>) => {
      reads.gets += wanted.length;
      return new Map(wanted.map(({ id }) => {
        const i = index.get(id)!;
        const ok = i % 4 !== 0;
        const n: NetworkRecord = { post_id: id, account_id: 'acc_1', platform: 'telegram', state: 'done', deferrals: 0, reserved: ok,
          result: ok ? { platform: 'telegram', ok: true, status: 'published', url: `https://t.me/x/${id}` } : { platform: 'telegram', ok: false, status: 'failed', code: 'rejected', error: 'no' } };
        return [id, [n]];
      }));
    },
  } as unknown as PostStore;
  return { posts, store, reads };
}

describe('activity log and CSV export', () => {
  it('cells are RFC 4180 quoted and formula-injection safe; lines end with CRLF', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const f of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(f).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    // spreadsheets skip leading whitespace before a formula: still text
    for (const f of [' =1+1', '  +1', '\u00a0-1', ' \n@SUM(A1)', '\u3000=CMD()']) expect([f, csvCell(f).replace(/^"/, '')]).toEqual([f, expect.stringMatching(/^'/)]);
    expect(csvCell(' plain')).toBe(' plain');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, true])).toBe('a,1,true\r\n');
  });

  it('10,000 posts stream page by page: the first rows are out before the 101st post is read, and every row arrives', async () => {
    const { store, reads } = generatedPosts(10_000);
    const gen = activityCsv({ posts: store, approvals: noApprovals, analytics }, 'acc_1', {}, 100);
    const header = await gen.next();
    expect(header.value).toBe(`${CSV_HEADER.join(',')}\r\n`);
    const first = await gen.next();
    expect(reads.gets).toBeLessThanOrEqual(100);
    let text = first.value as string;
    let biggest = text.length;
    for await (const chunk of gen) { text += chunk; biggest = Math.max(biggest, chunk.length); }
    expect(reads.gets).toBe(10_000);
    expect(biggest).toBeLessThan(100 * 300); // one page of rows (each with its analytics cell)
    const records = parseCsv(header.value + text);
    expect(records).toHaveLength(10_001);
    expect(records[1][0] > records[2][0]).toBe(true); // newest first
    const firstPost = records.find((r) => r[11].includes('HYPERLINK'))!;
    expect(firstPost[11]).toBe('\'=HYPERLINK("http://evil")');
    expect(records[1][11]).toBe('post, "number" 9999\nsecond line');
    // the analytics column: the figures of tracked networks as JSON, empty for untracked and failed ones
    const withFigures = records.slice(1).filter((r) => r[12] !== '');
    expect(withFigures.length).toBeGreaterThan(3000);
    expect(JSON.parse(withFigures[0][12])).toEqual({ status: 'synced', fetched_at: '2026-10-02T00:00:00.000Z', likes: 3 });
    expect(withFigures.every((r) => r[7] === 'true')).toBe(true);
    expect(Math.max(...asked)).toBeLessThanOrEqual(100);
  });

  it('export hands the chunks to storage as they are made (the storage reads the stream, never a whole file)', async () => {
    const { store, reads } = generatedPosts(1_000);
    const seen: number[] = [];
    const blobs = {
      putStream: async (_key: string, chunks: AsyncIterable<string | Uint8Array>) => {
        let bytes = 0;
        for await (const c of chunks) { seen.push(reads.gets); bytes += c.length; }
        return { bytes };
      },
      presignGet: async (key: string, _s: number, o?: { downloadName?: string }) => `https://s3.test/${key}?download=${o?.downloadName}`,
    } as unknown as Blobs;
    const res = await exportActivity({ posts: store, approvals: noApprovals, analytics, blobs, clock: new ManualClock(Date.UTC(2026, 10, 24)) }, 'acc_1', {});
    expect(res.url).toMatch(/^https:\/\/s3\.test\/exports\/acc_1\/[0-9A-Z]{26}\/posts-2026-11-24\.csv\?download=posts-2026-11-24\.csv$/);
    expect(seen[0]).toBe(0);
    expect(seen[1]).toBeLessThanOrEqual(100);
    expect(seen.at(-1)).toBe(1_000);
  });

  it('filters: brand, network status, source and date range; pages with a cursor', async () => {
    const { store, posts } = generatedPosts(300);
    const deps = { posts: store, approvals: noApprovals };
    const day = posts[0].created_at.slice(0, 10);
    const failed = await activityPage(deps, 'acc_1', { status: 'failed', brand_id: 'brd_b', source: 'schedule' }, 10);
    expect(failed.posts.length).toBe(10);
    expect(failed.posts.every((p) => p.brand_id === 'brd_b' && p.source === 'schedule' && p.networks[0].status === 'failed')).toBe(true);
    const next = await activityPage(deps, 'acc_1', { status: 'failed', brand_id: 'brd_b', source: 'schedule' }, 10, failed.next_before!);
    expect(next.posts[0].id < failed.posts[9].id).toBe(true);
    const none = await activityPage(deps, 'acc_1', { to: '2026-09-30' }, 10);
    expect(none.posts).toEqual([]);
    const all = await activityPage(deps, 'acc_1', { from: day, to: day }, 500);
    expect(all.posts.length).toBe(posts.filter((p) => p.created_at.startsWith(day)).length);
    expect(all.next_before).toBeNull();
  });
});
