import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { wholeDepsParameters } from './whole-deps';

/*
 * Every exported use case of shared/app declares the dependencies it uses (`Pick<Deps, …>` or a named Pick next to
 * it, e.g. PublishPostDeps) instead of taking the whole container: its reach is visible in its signature, and a test
 * can hand it only what it needs. Handlers still pass the container's deps (a whole Deps is assignable).
 */

const root = path.resolve(__dirname, '../..');

/**
 * Exported functions of shared/app allowed to take the whole Deps, as `file:line name(param)` with the reason in a
 * comment. None today: add one only for a function that truly uses every member.
 */
const ALLOWED: readonly string[] = [];

describe('use cases declare the dependencies they use', () => {
  test('no exported function of shared/app takes the whole Deps', () => {
    expect(wholeDepsParameters(root, 'shared/app', 'shared/app/deps.ts').filter((f) => !ALLOWED.includes(f))).toEqual([]);
  }, 120_000);
});

describe('the whole-Deps finder', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'use-case-deps-'));
    const write = (file: string, text: string) => { fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true }); fs.writeFileSync(path.join(dir, file), text); };
    write('app/deps.ts', 'export interface Deps { clock: { now(): number }; posts: { get(id: string): string }; queue: { send(m: string): void } }\n');
    write('app/narrow.ts', [
      "import type { Deps } from './deps';",
      "export type ReadDeps = Pick<Deps, 'clock' | 'posts'>;",
      'export async function read(deps: ReadDeps, id: string) { return deps.posts.get(id); }',
      "export const stamp = (deps: Pick<Deps, 'clock'>) => deps.clock.now();",
      'async function helper(deps: Deps) { return deps.clock.now(); }',
      'export const viaHelper = (deps: ReadDeps) => helper(deps as Deps);',
    ].join('\n'));
    write('app/whole.ts', [
      "import type { Deps as Everything } from './deps';",
      "import type { ReadDeps } from './narrow';",
      'type All = Everything;',
      'export async function publish(deps: Everything, id: string) { return id; }',
      'export const fire = (id: string, deps: All) => id;',
      "export function both(deps: ReadDeps & Pick<Everything, 'queue'>) { return deps; }",
      'export function generic<D extends Everything>(deps: D) { return deps; }',
      'export class Worker { constructor(private readonly deps: Readonly<Everything>) {} run(d: ReadDeps) { return d; } }',
    ].join('\n'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('names every exported function whose parameter holds all of Deps, however the type is spelled', () => {
    expect(wholeDepsParameters(dir, 'app', 'app/deps.ts')).toEqual([
      'app/whole.ts:4 publish(deps)',
      'app/whole.ts:5 fire(deps)',
      'app/whole.ts:6 both(deps)',
      'app/whole.ts:7 generic(deps)',
      'app/whole.ts:8 Worker.constructor(deps)',
    ]);
  });
});
