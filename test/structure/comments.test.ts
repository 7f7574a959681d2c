import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

/*
 * Comments say what the code does now: no history ("issue 12", "(was …)") and no path of a file that is gone. A
 * path-like token ending in .ts in a comment must be the end of a file of the repository (`deliveries.ts`,
 * `app/publish/create-post.ts`, `shared/container.ts`); `../` and `./` in front are dropped. And use cases raise
 * errors named by meaning (BadRequestError, DuplicatePostError, …), never `new AppError(<status>, …)`.
 */

const root = path.resolve(__dirname, '../..');
const SCANNED = /^(shared|functions|infra|bin)\/.*\.ts$/;
/** History is looked for in the tests and benches too (this file excepted: its scanner fixtures hold history on purpose). */
const HISTORY_SCANNED = (f: string) => (SCANNED.test(f) || /^(test|bench)\/.*\.ts$/.test(f)) && f !== 'test/structure/comments.test.ts';
/** A path-like token ending in .ts: not preceded by a word, dot, slash or dash; folders before a file name. */
const PATH_TOKEN = /(?<![\w./-])((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.ts)\b/g;
/** Where a comment starts on a line: `//`, `/*`, or a `*` continuing a block. */
const COMMENT_START = /\/\/|\/\*|^\s*\*/;
const HISTORY = /\bissues? \d+\b|\(was\b/i;

function repoFiles(dir: string): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: dir, encoding: 'utf8' })
    .split('\n').filter((f) => f && fs.existsSync(path.join(dir, f)));
}

/** `file:line: what` for each comment naming a .ts path that no file of `files` ends with. */
function stalePaths(dir: string, files: string[]): string[] {
  const out: string[] = [];
  const known = (token: string) => files.some((f) => f === token || f.endsWith(`/${token}`));
  for (const file of files.filter((f) => SCANNED.test(f) && !f.endsWith('.d.ts'))) {
    fs.readFileSync(path.join(dir, file), 'utf8').split('\n').forEach((line, i) => {
      const at = line.search(COMMENT_START);
      if (at < 0) return;
      for (const m of line.slice(at).matchAll(PATH_TOKEN)) {
        const token = m[1]!.replace(/^(\.\.?\/)+/, '');
        if (!known(token)) out.push(`${file}:${i + 1}: ${m[1]}`);
      }
    });
  }
  return out;
}

/** `file:line` for each comment that tells history instead of what the code does. */
function historyComments(dir: string, files: string[]): string[] {
  const out: string[] = [];
  for (const file of files.filter(HISTORY_SCANNED)) {
    fs.readFileSync(path.join(dir, file), 'utf8').split('\n').forEach((line, i) => {
      const at = line.search(COMMENT_START);
      if (at >= 0 && HISTORY.test(line.slice(at))) out.push(`${file}:${i + 1}`);
    });
  }
  return out;
}

describe('comments and errors of shared/, functions/, infra/ and bin/ (history: test/ too)', () => {
  const files = repoFiles(root);

  test('the scan reads the tree it checks', () => {
    expect(files.filter((f) => SCANNED.test(f)).length).toBeGreaterThan(300);
  });

  test('no comment names a .ts file that does not exist', () => {
    expect(stalePaths(root, files)).toEqual([]);
  });

  test('no comment tells history (issue numbers, "(was …)"), in product code or tests', () => {
    expect(historyComments(root, files)).toEqual([]);
  });

  test('use cases raise errors named by meaning, never new AppError(<status>, …)', () => {
    const found = files.filter((f) => f.startsWith('shared/app/') && f.endsWith('.ts'))
      .filter((f) => /new AppError\(/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(found).toEqual([]);
  });
});

describe('the comment scanner', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comments-'));
    const write = (file: string, text: string) => { fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true }); fs.writeFileSync(path.join(dir, file), text); };
    write('shared/app/publish/create-post.ts', "// see ../webhooks/delivery-queue.ts and app/publish/create-post.ts\nconst s = 'deliver.ts';\n");
    write('shared/app/webhooks/delivery-queue.ts', '/**\n * Was deliver.ts; the lock lives in shared/wiring.ts (issue 30)\n */\nexport const x = 1;\n');
    write('test/networks/kinds.test.ts', "/** Issue 15's post kinds */\nit('issue 15 in a test name is not a comment', () => {});\n");
    execFileSync('git', ['init', '-q'], { cwd: dir });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('names a comment\'s path that no file ends with, not one in code or one that exists', () => {
    expect(stalePaths(dir, repoFiles(dir))).toEqual([
      'shared/app/webhooks/delivery-queue.ts:2: deliver.ts',
      'shared/app/webhooks/delivery-queue.ts:2: shared/wiring.ts',
    ]);
  });

  test('names a comment with an issue number', () => {
    expect(historyComments(dir, repoFiles(dir))).toEqual(['shared/app/webhooks/delivery-queue.ts:2', 'test/networks/kinds.test.ts:1']);
  });
});
