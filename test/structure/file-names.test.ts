import { execFileSync } from 'node:child_process';
import path from 'node:path';

/*
 * Names that say what a file does: two files of shared/ or functions/ with the same name must be the same concept in
 * different layers of the hexagon (its port, its adapter, its domain values, its use case: ports/media.ts,
 * adapters/dynamodb/media.ts, domain/media.ts, net/media.ts…) or the same part of two network adapters
 * (networks/x/oauth.ts, networks/youtube/oauth.ts). Anything else — two `deliver.ts` doing different things — is
 * refused unless listed below with its reason.
 */

const root = path.resolve(__dirname, '../..');

/** Groups of files allowed to share a name although the rule above does not cover them, each with its reason. */
const ALLOWED: ReadonlyArray<{ files: readonly string[]; reason: string }> = [
  { files: ['shared/app/media/sweep.ts', 'shared/app/schedule/sweep.ts'], reason: "each area's periodic sweep (expired media; schedules whose alarm was lost)" },
  { files: ['shared/app/publish/request.ts', 'shared/app/schedule/request.ts'], reason: "each area's request schemas (POST /api/post; POST /api/schedule, bulk, recurring)" },
  { files: ['shared/app/billing/overview.ts', 'shared/app/dashboard/overview.ts'], reason: "each area's overview (GET /api/billing; the dashboard's Overview page)" },
  { files: ['functions/mcp/errors.ts', 'functions/routes/errors.ts', 'shared/domain/errors.ts', 'shared/networks/telegram/errors.ts', 'shared/networks/x/errors.ts'], reason: "errors as each speaks them: the MCP tools' error results, the route table's error responses, the service's AppErrors, two networks' error bodies" },
  { files: ['shared/app/auth.ts', 'shared/http/middlewares/auth.ts'], reason: 'key and session authentication: the use case, and the middleware of every route that runs it' },
  { files: ['shared/app/rate-limit.ts', 'shared/http/middlewares/rate-limit.ts'], reason: 'request limits: the use case (windows in the table), and the middleware of every route that counts against them' },
  { files: ['functions/mcp/handler.ts', 'shared/http/handler.ts'], reason: "the MCP function's Lambda entry; the wrapper of every HTTP route's handler" },
];

/** The layer a file belongs to: its functions/ folder, its network or adapter kind, else its shared/ folder. */
function layerOf(file: string): string {
  const p = file.split('/');
  if (p[0] === 'functions') return p.slice(0, 2).join('/');
  if ((p[1] === 'networks' || p[1] === 'adapters') && p.length > 3) return p.slice(0, 3).join('/');
  return p.slice(0, 2).join('/');
}

/** The layers of one concept: the hexagon's, and the route table's area files (functions/routes/<area>.ts: a concept's HTTP routes). */
const HEXAGON = (layer: string) =>
  ['shared/domain', 'shared/ports', 'shared/app', 'shared/net', 'functions/routes'].includes(layer) || layer.startsWith('shared/adapters/') || layer.startsWith('shared/networks/');

/** Pairs of files with the same name that the rule does not allow and `allowed` does not list. */
function clashingNames(files: readonly string[], allowed: ReadonlyArray<{ files: readonly string[] }>): string[] {
  const byName = new Map<string, string[]>();
  for (const f of files) byName.set(path.posix.basename(f), [...(byName.get(path.posix.basename(f)) ?? []), f]);
  const clashes: string[] = [];
  for (const [name, group] of byName) {
    if (name === 'index.ts') continue;
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i]!, group[j]!];
        const [la, lb] = [layerOf(a), layerOf(b)];
        if (la !== lb && HEXAGON(la) && HEXAGON(lb)) continue;
        if (allowed.some((g) => g.files.includes(a) && g.files.includes(b))) continue;
        clashes.push(`${a} ~ ${b}`);
      }
    }
  }
  return clashes.sort();
}

describe('file names of shared/ and functions/', () => {
  const files = execFileSync('git', ['ls-files', 'shared', 'functions'], { cwd: root, encoding: 'utf8' })
    .split('\n').filter((f) => f.endsWith('.ts'));

  test('the scan reads the tree it checks', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('shared/app/publish/send-to-network.ts');
  });

  test('no two files share a name unless they are one concept in two layers, or listed with a reason', () => {
    expect(clashingNames(files, ALLOWED)).toEqual([]);
  });

  test('every allowed group still names files that exist and share a name', () => {
    for (const g of ALLOWED) {
      expect(g.files.filter((f) => !files.includes(f))).toEqual([]);
      expect(new Set(g.files.map((f) => path.posix.basename(f))).size).toBe(1);
    }
  });

  test('the rule refuses two deliver.ts doing different things, and a handler sharing its use case name', () => {
    expect(clashingNames([
      'shared/app/webhooks/deliver.ts', 'shared/app/publish/deliver.ts',
      'functions/scheduler/dispatch.ts', 'shared/app/schedule/dispatch.ts',
      'shared/ports/media.ts', 'shared/adapters/dynamodb/media.ts', 'shared/networks/x/media.ts',
      'shared/http/index.ts', 'shared/app/index.ts',
    ], [])).toEqual([
      'functions/scheduler/dispatch.ts ~ shared/app/schedule/dispatch.ts',
      'shared/app/webhooks/deliver.ts ~ shared/app/publish/deliver.ts',
    ]);
  });
});
