import fs from 'node:fs';
import path from 'node:path';
import { routeList } from '../../functions/routes';
import { dispatcher, workers } from '../../functions/workers';
import { handlerFile } from '../../shared/http/route';

/*
 * A function's dependencies are decided when they are built: the container takes what replaces its own choice as
 * an argument (buildDeps(cfg, given)), and a handler is made over given dependencies (`using`, wiredHandler). No
 * product code has a setter for tests: no setDeps or global to swap, no container member that can be assigned.
 */

const root = path.resolve(__dirname, '../..');
const PRODUCT_DIRS = ['shared', 'functions', 'infra', 'bin', 'bench'];

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** Code lines (comments left out) of `files` matching `pattern`, as `file:line: text`. */
function codeMatching(pattern: RegExp, files: readonly string[]): string[] {
  return files.flatMap((file) => fs.readFileSync(path.join(root, file), 'utf8').split('\n')
    .map((line, i) => ({ at: `${file}:${i + 1}`, line: line.trim() }))
    .filter(({ line }) => pattern.test(line) && !line.startsWith('*') && !line.startsWith('//') && !line.startsWith('/*'))
    .map(({ at, line }) => `${at}: ${line}`));
}

describe('dependencies are injected when they are built, never swapped', () => {
  const product = PRODUCT_DIRS.flatMap(sources);

  test('no product code swaps the dependencies: no setDeps, getDeps or assignable lazy object', () => {
    expect(codeMatching(/\b(setDeps|getDeps)\b|\blazily\s*[<(]/, product)).toEqual([]);
  });

  test('no product code assigns a member of a deps object', () => {
    expect(codeMatching(/\bdeps(\(\))?\.\w+\s*=[^=>]/, product)).toEqual([]);
  });

  test('the container defines no setter', () => {
    expect(codeMatching(/\bset\s*\(|\bset\s*:/, ['shared/container.ts'])).toEqual([]);
  });

  test('every function the route table and the worker table name exports a handler that can be made over given deps', () => {
    const files = [...new Set([...routeList.map(handlerFile), ...workers.map((w) => w.handler), dispatcher.handler])];
    expect(files.length).toBeGreaterThan(100);
    const unmade = files.filter((f) => !/export const handler = (httpHandler|wiredHandler)\(/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(unmade).toEqual([]);
  });
});
