import fs from 'node:fs';
import path from 'node:path';
import { importGraph } from '../support/import-graph';
import { buildDeps } from '../../shared/container';
import { parseConfig } from '../../shared/config';

/*
 * The structure rules that a grep can prove, kept true by this file: no error swallowed unlogged, no
 * product code that only tests use, the small helpers and the message shapes written once, one partial-batch
 * helper, ports in shared/ports, and recording an event that fans out nothing behind the caller's back.
 */

const root = path.resolve(__dirname, '../..');
const PRODUCT_DIRS = ['shared', 'functions', 'infra', 'bin'];

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

const product = PRODUCT_DIRS.flatMap(sources);

/** Code lines (comments left out) of the product files matching `pattern`, as `file:line: text`. */
function linesMatching(pattern: RegExp, files: readonly string[] = product): string[] {
  return files.flatMap((file) => fs.readFileSync(path.join(root, file), 'utf8').split('\n')
    .map((line, i) => ({ at: `${file}:${i + 1}`, line: line.trim() }))
    .filter(({ line }) => pattern.test(line) && !line.startsWith('*') && !line.startsWith('//') && !line.startsWith('/*'))
    .map(({ at, line }) => `${at}: ${line}`));
}

/** An error discarded on purpose: `void err`, or a rejection turned into nothing (`.catch(() => undefined)`). */
const SWALLOWED = /\bvoid\s+(err|error|e|reason|_err)\b|\.catch\(\(\)\s*=>\s*(undefined|null|void 0|\{\s*\})\)/;
/** Where dropping an error is the point, each with its reason (matched against `file: text`). */
const SWALLOW_ALLOWED: ReadonlyArray<{ where: RegExp; reason: string }> = [
  { where: /\.cancel\(\)\.catch\(/, reason: 'cancelling a response body or reader that is being dropped: its failure changes nothing' },
  { where: /^shared\/adapters\/local\/local-cipher\.ts:.*unlink\(tmp\)/, reason: 'removing a temporary key file that may never have been written' },
  { where: /^shared\/networks\/tiktok\/oauth\.ts:.*creatorInfo\(/, reason: "the creator's display name is optional on the sign-in: the account is connected without it" },
];

describe('leftovers of issue 18', () => {
  test('the scan reads the tree it checks', () => {
    expect(product.length).toBeGreaterThan(400);
    expect(linesMatching(/export const trimBase\b/)).toHaveLength(1);
  });

  test('no error is swallowed unlogged in product code (best-effort steps go through bestEffort, which logs)', () => {
    const swallowed = linesMatching(SWALLOWED).filter((l) => !SWALLOW_ALLOWED.some((a) => a.where.test(l)));
    expect(swallowed).toEqual([]);
  });

  test('every allowed swallow still exists (a stale entry is removed)', () => {
    const found = linesMatching(SWALLOWED);
    for (const a of SWALLOW_ALLOWED) expect({ allowed: a.reason, found: found.some((l) => a.where.test(l)) }).toEqual({ allowed: a.reason, found: true });
  });

  test('product code holds nothing only tests use (allowPrivateTargets, staticClients live in test/ or are gone)', () => {
    expect(linesMatching(/\b(allowPrivateTargets|staticClients)\b/)).toEqual([]);
  });

  test('trimBase and isRecord are defined once, in shared/domain/values.ts', () => {
    const definitions = linesMatching(/\b(function|const|let|var)\s+(trimBase|isRecord)\b/, [...product, ...sources('bench')]);
    expect(definitions.map((d) => d.split(':')[0])).toEqual(['shared/domain/values.ts', 'shared/domain/values.ts']);
  });

  test('the publish message is defined once (zod, its type inferred)', () => {
    expect(linesMatching(/\b(const|type|interface|class)\s+PublishMessage\b/).map((d) => d.replace(/:\d+:.*/, '')))
      .toEqual(['shared/app/publish/publish-message.ts', 'shared/app/publish/publish-message.ts']);
    expect(linesMatching(/export type PublishMessage = z\.infer<typeof PublishMessage>/)).toHaveLength(1);
  });

  test('one partial-batch helper: no loop builds batchItemFailures by hand; every queue worker uses functions/queue/sqs-batch.ts', () => {
    expect(linesMatching(/batchItemFailures\s*[:=]|batchItemFailures\.push/)).toEqual([]);
    expect(linesMatching(/from '@middy\/sqs-partial-batch-failure'/).map((d) => d.split(':')[0])).toEqual(['functions/queue/sqs-batch.ts']);
    const workers = sources('functions/queue').filter((f) => /export const handler\b/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(workers.length).toBeGreaterThanOrEqual(2);
    for (const file of workers) expect({ file, shared: /export const handler = wiredHandler\(\(.*\) => sqs(Message|Batch)Handler\(/.test(fs.readFileSync(path.join(root, file), 'utf8')) }).toEqual({ file, shared: true });
  });

  test("the give-back of a post's reservations is written once (publish/reservations.ts), used by the API and the worker", () => {
    expect(linesMatching(/\bfunction giveBack\b/, sources('shared')).map((d) => d.split(':')[0])).toEqual(['shared/app/publish/reservations.ts']);
    const callers = new Set(linesMatching(/\bgiveBack\(deps, post/, sources('shared')).map((d) => d.split(':')[0]));
    expect(callers).toEqual(new Set(['shared/app/publish/send-to-network.ts', 'shared/app/publish/store-and-queue.ts']));
  });

  test('the dependencies of a use case are ports: shared/app/deps.ts imports only shared/ports', () => {
    const graph = importGraph(root, ['shared']);
    expect(graph.get('shared/app/deps.ts')!.filter((e) => !e.target?.startsWith('shared/ports/'))).toEqual([]);
  });

  test('the container hands out read-only settings, and tests build their deps with the container itself', () => {
    const deps = buildDeps(parseConfig({
      ...process.env, RUNTIME: 'local', TABLE_NAME: 'structure', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1',
      PUBLIC_BASE_URL: 'https://api.test', PUBLISH_QUEUE_URL: 'memory://publish', WEBHOOK_QUEUE_URL: 'memory://webhooks',
    }));
    expect(deps.settings.publicBaseUrl).toBe('https://api.test');
    expect(Object.isFrozen(deps.settings)).toBe(true);
    const support = importGraph(root, ['test/support']).get('test/support/deps.ts')!;
    expect(support.map((e) => e.target)).toContain('shared/container.ts');
    const supportText = fs.readFileSync(path.join(root, 'test/support/deps.ts'), 'utf8');
    expect(supportText).toMatch(/= parseConfig\(/);
    expect(supportText).toMatch(/return buildDeps\(cfg, given\)/);
  });

  test('recording an event fans out nothing: the event stores know nothing of webhooks or queues', () => {
    const sinks = product.filter((f) => f.startsWith('shared/adapters/') && /implements [^{]*\bEventSink\b/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(sinks.length).toBeGreaterThan(0);
    const graph = importGraph(root, ['shared']);
    for (const file of sinks) {
      expect({ file, imports: graph.get(file)!.map((e) => e.target ?? e.specifier).filter((t) => /webhook|queue|fan-out|sqs/i.test(t)) }).toEqual({ file, imports: [] });
    }
  });
});
