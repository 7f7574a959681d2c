import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { forbiddenImports, importCircles, importGraph, roomCircles, roomInside, type ImportEdge } from '../support/import-graph';

/*
 * The layering rules of docs/architecture.md, read from the code's own imports (type-only imports included):
 * no import circles; the domain imports only the domain (and Node built-ins or pure libraries); use cases know
 * nothing of HTTP, HTML, Lambda or AWS; ports know only ports and the domain.
 */

const root = path.resolve(__dirname, '../..');
const graph = importGraph(root, ['shared', 'functions', 'infra']);
const house = importGraph(root, ['shared', 'functions', 'infra', 'bin', 'bench']);
/** The house's rooms as farm-studio draws them: each top folder, and shared/ one level down. */
const houseRoom = (file: string) => (file.startsWith('shared/') ? roomInside('shared')(file) : file.split('/')[0]);
/**
 * Imports allowed to run back up the house, each to be gone (none since the typed wiring: shared/wiring no longer
 * imports shared/http, so the handler wrapper's import of the container points down). The test holds the house at 0.
 */
const HOUSE_ARROWS_BACK_UP: readonly string[] = [];

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier);
const under = (edge: ImportEdge, ...dirs: string[]) => !!edge.target && dirs.some((d) => edge.target!.startsWith(`${d}/`));
/** Packages that speak to AWS or Lambda, or build the HTTP side: none of them belongs below the handlers. */
const INFRASTRUCTURE_PACKAGE = /^(@aws-sdk\/|@smithy\/|aws-lambda$|@aws-lambda-powertools\/|@middy\/|aws-cdk-lib|constructs$)/;
/** The pure libraries the domain may use (time zones and cron expressions). */
const DOMAIN_PACKAGES = new Set(['luxon', 'cron-parser']);

describe('import structure of shared/, functions/ and infra/', () => {
  test('the scan reads the tree it checks', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('shared/app/deps.ts')!.some((e) => e.target?.startsWith('shared/ports/'))).toBe(true);
  });

  test('no file imports itself back through a circle', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  test('the house stacks: its rooms (top folders, shared/ one level down) import each other without a loop, so no arrow runs back up', () => {
    expect(roomCircles(house, houseRoom, HOUSE_ARROWS_BACK_UP)).toEqual([]);
  });

  test('each import let run back up still exists (a gone one leaves the list)', () => {
    const imports = new Set([...house].flatMap(([file, edges]) => edges.map((e) => `${file} → ${e.target}`)));
    expect(HOUSE_ARROWS_BACK_UP.filter((line) => !imports.has(line))).toEqual([]);
  });

  test('shared/app stacks: its rooms (each folder or file) import each other without a loop (publish never imports what depends on it)', () => {
    expect(roomCircles(graph, roomInside('shared/app'))).toEqual([]);
  });

  test('every relative import names a file that exists', () => {
    expect(forbiddenImports(graph, '', (e) => !e.target?.endsWith('(unresolved)'))).toEqual([]);
  });

  test('shared/domain imports only the domain, Node built-ins and its pure libraries', () => {
    expect(forbiddenImports(graph, 'shared/domain/', (e) =>
      e.target ? under(e, 'shared/domain') : isBuiltin(e.specifier) || DOMAIN_PACKAGES.has(e.specifier))).toEqual([]);
  });

  test('shared/ports imports only ports and the domain', () => {
    expect(forbiddenImports(graph, 'shared/ports/', (e) =>
      e.target ? under(e, 'shared/ports', 'shared/domain') : isBuiltin(e.specifier) || !INFRASTRUCTURE_PACKAGE.test(e.specifier))).toEqual([]);
  });

  test('shared/app knows nothing of HTTP, HTML, adapters, the container, Lambda or AWS', () => {
    expect(forbiddenImports(graph, 'shared/app/', (e) =>
      e.target
        ? !under(e, 'shared/http', 'shared/adapters', 'functions', 'infra') && e.target !== 'shared/container.ts'
        : !INFRASTRUCTURE_PACKAGE.test(e.specifier))).toEqual([]);
  });

  test('shared/app reads network limits and post links through the NetworkLimits port only: it imports no module of shared/networks', () => {
    expect(forbiddenImports(graph, 'shared/app/', (e) => !under(e, 'shared/networks'))).toEqual([]);
  });

  test('shared/app checks addresses and fetches media through ports only: it imports no module of shared/net', () => {
    expect(forbiddenImports(graph, 'shared/app/', (e) => !under(e, 'shared/net'))).toEqual([]);
  });

  test('shared/api (the wire schemas) imports no use case: request bodies owned by a use case are imported by the routes', () => {
    expect(forbiddenImports(graph, 'shared/api/', (e) => !under(e, 'shared/app', 'shared/http', 'shared/adapters', 'functions', 'infra'))).toEqual([]);
  });

  test('nothing under functions/ or shared/ imports infra/ (the CDK app and the local runtime)', () => {
    expect(forbiddenImports(graph, 'functions/', (e) => !under(e, 'infra'))).toEqual([]);
    expect(forbiddenImports(graph, 'shared/', (e) => !under(e, 'infra', 'functions'))).toEqual([]);
  });

  test('infra/ reads the route and worker tables of functions/, never handler code', () => {
    const tables = (e: ImportEdge) => e.target === 'functions/routes.ts' || e.target === 'functions/workers.ts' || under(e, 'functions/routes');
    expect(forbiddenImports(graph, 'infra/', (e) => !under(e, 'functions') || tables(e))).toEqual([]);
  });

  test('no HTML is built in shared/app or shared/domain', () => {
    const html: string[] = [];
    for (const file of graph.keys()) {
      if (!file.startsWith('shared/app/') && !file.startsWith('shared/domain/')) continue;
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      if (/<(!doctype|html|body|form|main|label|input)\b/i.test(text) || /escapeHtml/.test(text)) html.push(file);
    }
    expect(html).toEqual([]);
  });
});

describe('the import scanner', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-'));
    const write = (file: string, text: string) => { fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true }); fs.writeFileSync(path.join(dir, file), text); };
    write('shared/app/a.ts', "import { b } from './b';\nimport type { Reply } from '../http/reply';\nexport const a = b;\n");
    write('shared/app/b.ts', "export const b = 1;\nexport type { A } from './c';\n");
    write('shared/app/c/index.ts', "const lazy = () => require('../a');\nexport type A = typeof lazy;\n");
    write('shared/http/reply.ts', "import { SQSClient } from '@aws-sdk/client-sqs';\nexport type Reply = SQSClient;\n");
    write('shared/app/d.ts', "export const d = import('./d');\n");
    write('shared/web/up/e.ts', "import { f } from '../down/f';\nexport const e = f;\n");
    write('shared/web/down/f.ts', "export const f = 1;\n");
    write('shared/web/down/g.ts', "import type { e } from '../up/e';\nexport type G = typeof e;\n");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('finds circles through re-exports, index files and require(), and a file importing itself', () => {
    const circles = importCircles(importGraph(dir, ['shared']));
    expect(circles).toEqual(expect.arrayContaining([['shared/app/a.ts', 'shared/app/b.ts', 'shared/app/c/index.ts'], ['shared/app/d.ts']]));
    expect(circles).toHaveLength(2);
  });

  test('finds rooms that import each other without a file circle, and names the imports that tie them', () => {
    const g = importGraph(dir, ['shared']);
    expect(importCircles(g).flat()).not.toContain('shared/web/up/e.ts');
    expect(roomCircles(g, roomInside('shared/web'))).toEqual([['shared/web/down/g.ts → shared/web/up/e.ts', 'shared/web/up/e.ts → shared/web/down/f.ts']]);
    expect(roomCircles(g, roomInside('shared/web'), ['shared/web/down/g.ts → shared/web/up/e.ts'])).toEqual([]);
  });

  test('names each import that breaks a rule', () => {
    const g = importGraph(dir, ['shared']);
    expect(forbiddenImports(g, 'shared/app/', (e) => !under(e, 'shared/http'))).toEqual(['shared/app/a.ts → shared/http/reply.ts']);
    expect(forbiddenImports(g, 'shared/', (e) => !!e.target || !INFRASTRUCTURE_PACKAGE.test(e.specifier))).toEqual(['shared/http/reply.ts → @aws-sdk/client-sqs']);
  });
});
