import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * README "Try it" works offline on a fresh start: the commands are EXTRACTED from README.md (the first sh block of
 * the "Try it" section, never a copy), run with bash against `npm start`'s own entry point (bin/local.ts through tsx,
 * in its own process, sandbox mode by default, on a free port), then checked through the sandbox: the four posts
 * arrived at their simulators and the webhook deliveries reached the local receiver.
 */
const ROOT = path.join(__dirname, '..', '..');
const run = promisify(execFile);

/** The shell commands of the README's "Try it" section, as written there. */
export function tryItCommands(readme: string): string {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Try it\n'));
  if (!section) throw new Error('README has no "## Try it" section');
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('the "Try it" section has no sh block');
  return block[1];
}

/** The JSON object at the start of `text` (curl prints answers without a line break after them). */
function firstJson(text: string): unknown {
  for (let end = text.indexOf('}') + 1; end > 0; end = text.indexOf('}', end) + 1) {
    try { return JSON.parse(text.slice(0, end)); } catch { /* not yet the whole object */ }
  }
  throw new Error(`no JSON object at: ${text.slice(0, 200)}`);
}

let server: ChildProcess | undefined;
let base = '';
let work = '';

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-readme-'));
  server = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bin/local.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: work, PORT: '0', DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let banner = '';
  base = await new Promise<string>((resolve, reject) => {
    server!.stdout!.on('data', (c: Buffer) => {
      banner += c.toString();
      const m = /listening on (http:\/\/localhost:\d+)/.exec(banner);
      if (m && banner.includes('Ctrl-C')) resolve(m[1]);
    });
    server!.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${banner}`)));
  });
  expect(banner).toContain('SANDBOX');
  expect(banner).toContain(`${base}/dev/sandbox/inbox`);
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('README "Try it"', () => {
  it('runs as written against a fresh npm start: signup, key, four networks, a cross-post, the inbox and a webhook', async () => {
    const script = tryItCommands(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    expect(script).toContain('localhost:3000');
    const port = new URL(base).port;
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script.replaceAll('localhost:3000', `localhost:${port}`)], { cwd: work, timeout: 90_000, env: { PATH: process.env.PATH ?? '', HOME: work } });

    expect(stdout).toContain('"pending_verification":true');
    // JSON answers printed as they are end their line; step 5 leaves no cookie file behind
    expect(stdout).toMatch(/"pending_verification":true[^\n]*\}\n/);
    expect(fs.readdirSync(work)).not.toContain('cookies.txt');
    expect(stdout).toMatch(/connected=linkedin\n/);
    const results = firstJson(stdout.slice(stdout.indexOf('{"post_id"'))) as { results: Array<{ platform: string; ok: boolean; status: string }> };
    expect(results.results.map((r) => [r.platform, r.ok, r.status])).toEqual([
      ['telegram', true, 'published'], ['bluesky', true, 'published'], ['mastodon', true, 'published'], ['linkedin', true, 'published'],
    ]);
    for (const n of ['telegram', 'bluesky', 'mastodon', 'linkedin']) expect(stdout).toContain(`${n}: Hello from one API call`);

    // the workers deliver the four post.published events to the sandbox receiver in the background
    let delivered: Array<{ network: string; text: string | null }> = [];
    for (let i = 0; i < 100 && delivered.length < 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const inbox = (await (await fetch(`${base}/dev/sandbox`)).json()) as { inbox: Array<{ network: string; text: string | null }> };
      delivered = inbox.inbox.filter((e) => e.network === 'webhook');
    }
    expect(delivered.map((d) => d.text)).toEqual(['post.published', 'post.published', 'post.published', 'post.published']);
  });
});
