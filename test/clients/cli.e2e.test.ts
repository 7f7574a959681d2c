import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';
import { EXIT, runSocial } from '../../bin/social';
import { signatureHeader } from '../../shared/webhooks/verify';

let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();
let key: string;
const ROOT = path.resolve(__dirname, '..', '..');

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  key = await signupThroughApi(rt.url, 'cli@example.com', 'starter');
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop()]);
});

async function social(args: string[], env: Record<string, string> = {}, stdin?: string) {
  let out = '';
  let err = '';
  const code = await runSocial(args, {
    out: (t) => { out += t; }, err: (t) => { err += t; },
    env: { SOCIAL_BASE_URL: rt.url, SOCIAL_API_KEY: key, SOCIAL_CONFIG: '/nonexistent/config.json', ...env },
    readStdin: async () => stdin ?? '',
  });
  return { code, out, err };
}

describe('social (bin/social.ts) end to end against the local runtime', () => {
  it('posts to two networks, shows results, exits 10 when one failed; --json prints the answer', async () => {
    expect((await social(['post', '--to', 'telegram', 'no connection yet'])).code).toBe(EXIT.partial);
    const api = (body: unknown, p: string) => fetch(rt.url + p, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await api({ platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } }, '/api/connect')).status).toBe(200);
    expect((await api({ platform: 'discord', credentials: { webhook_url: discord.webhookUrl } }, '/api/connect')).status).toBe(200);

    const ok = await social(['post', '--to', 'telegram,discord', 'Hello', 'from', 'the CLI']);
    expect(ok.code).toBe(EXIT.ok);
    expect(ok.out).toMatch(/^post pst_[0-9A-Z]{26}\n✓ telegram +published +https:\/\/t\.me\/acmenews\/\d+\n✓ discord +published/);
    expect(telegram.requests.filter((r) => r.path.endsWith('/sendMessage')).map((r) => (r.json as { text: string }).text)).toContain('Hello from the CLI');

    discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const partial = await social(['--json', 'post', '--to', 'telegram,discord', 'Half way']);
    expect(partial.code).toBe(EXIT.partial);
    const answer = JSON.parse(partial.out) as { post_id: string; results: Array<{ platform: string; ok: boolean }> };
    expect(answer.results.map((r) => [r.platform, r.ok])).toEqual([['telegram', true], ['discord', false]]);

    const status = await social(['status', answer.post_id]);
    expect(status.code).toBe(EXIT.ok);
    expect(status.out).toContain(`post ${answer.post_id}`);
    expect(status.out).toMatch(/✗ discord +failed rejected/);
    const byNetwork = await social(['--json', 'status', '--platform', 'telegram', '--id', answer.post_id]);
    expect(JSON.parse(byNetwork.out)).toMatchObject({ post_id: answer.post_id, status: 'published' });
  });

  it('schedule, list, cancel; bulk CSV in chunks with progress and row numbers across chunks', async () => {
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const one = await social(['schedule', '--to', 'telegram', '--at', at, 'Tomorrow+1']);
    expect(one.code).toBe(EXIT.ok);
    const id = /scheduled (sch_[0-9A-Z]{26})/.exec(one.out)![1];
    expect((await social(['schedule', 'list'])).out).toContain(id);
    expect((await social(['schedule', 'cancel', id])).out).toBe(`${id} canceled\n`);
    expect((await social(['schedule', 'cancel', id])).code).toBe(EXIT.conflict);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-'));
    const csv = path.join(dir, 'posts.csv');
    const rows = Array.from({ length: 5 }, (_, i) => `telegram,"Row ${i + 1}, quoted",${new Date(Date.now() + (3 + i) * 86_400_000).toISOString()}`);
    rows[3] = 'telegram,Bad row,not-a-time';
    fs.writeFileSync(csv, ['platforms,text,run_at', ...rows].join('\n') + '\n');
    const bulk = await social(['schedule', '--csv', csv, '--chunk', '2']);
    expect(bulk.err.trim().split('\n')).toEqual([
      'rows 1-2 of 5: 2 accepted, 0 rejected so far',
      'rows 3-4 of 5: 3 accepted, 1 rejected so far',
      'rows 5-5 of 5: 4 accepted, 1 rejected so far',
    ]);
    expect(bulk.out).toMatch(/^4 of 5 rows scheduled, 1 rejected\n  row 4: invalid_run_at: /);
    expect(bulk.code).toBe(EXIT.partial);
  });

  it('brands and keys; exit codes by error class; key from the config file', async () => {
    const brand = await social(['brands', 'create', 'CLI', 'brand']);
    expect(brand.out).toMatch(/^created brd_[0-9A-Z]{26} CLI brand\n$/);
    expect((await social(['brands'])).out).toContain('CLI brand');
    const created = await social(['--json', 'keys', 'create', 'ci']);
    const k = JSON.parse(created.out) as { id: string; api_key: string };
    expect((await social(['keys'])).out).toContain(k.id);
    expect((await social(['keys', 'revoke', k.id])).out).toMatch(new RegExp(`^revoked ${k.id} at `));
    expect((await social(['keys', 'revoke', k.id])).code).toBe(EXIT.not_found);

    const revoked = await social(['brands'], { SOCIAL_API_KEY: k.api_key });
    expect(revoked).toMatchObject({ code: EXIT.auth, out: '' });
    expect(revoked.err).toMatch(/\(HTTP 401\)/);
    const invalid = await social(['--json', 'post', '--to', 'telegram', '{"a":1}']);
    expect(invalid.code).toBe(EXIT.invalid);
    expect(JSON.parse(invalid.out)).toMatchObject({ status: 400, code: 'caption_is_json' });
    expect((await social(['post', 'no networks'])).code).toBe(EXIT.usage);
    expect((await social(['frobnicate'])).code).toBe(EXIT.usage);
    expect((await social(['brands'], { SOCIAL_BASE_URL: 'http://127.0.0.1:9' })).code).toBe(EXIT.network);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-cfg-'));
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ base_url: rt.url, api_key: key }));
    const fromFile = await social(['brands'], { SOCIAL_API_KEY: '', SOCIAL_BASE_URL: '', SOCIAL_CONFIG: path.join(dir, 'config.json') });
    expect(fromFile).toMatchObject({ code: EXIT.ok, out: expect.stringContaining('CLI brand') });
    expect((await social(['brands'], { SOCIAL_API_KEY: '' })).code).toBe(EXIT.usage);
  });

  it('webhooks verify checks a receiver\'s raw body and Service-Signature header', async () => {
    const secret = 'whsec_' + 'k'.repeat(32);
    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', created_at: new Date().toISOString(), data: {} });
    const header = signatureHeader([secret], Math.floor(Date.now() / 1000), body);
    const good = await social(['webhooks', 'verify', '--secret', secret, '--signature', header], {}, body);
    expect(good).toMatchObject({ code: EXIT.ok, out: expect.stringMatching(/^valid signature/) });
    const bad = await social(['--json', 'webhooks', 'verify', '--secret', secret, '--signature', header], {}, body + ' ');
    expect(bad.code).toBe(EXIT.invalid);
    expect(JSON.parse(bad.out)).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('runs as a program: the process exit code is the error class', async () => {
    const run = (args: string[]) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['bin/social.ts', ...args], {
        cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), SOCIAL_BASE_URL: rt.url, SOCIAL_API_KEY: key },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += String(d); });
      child.stderr.on('data', (d) => { err += String(d); });
      child.on('close', (code) => resolve({ code, out, err }));
    });
    const [ok, missing] = await Promise.all([run(['brands']), run(['status', 'pst_01ARZ3NDEKTSV4RRFFQ69G5FAV'])]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('CLI brand');
    // the client is imported by its file, not by the package folder whose main (dist/) is built only when published
    expect(ok.err).not.toContain('DEP0128');
    expect(missing.code).toBe(EXIT.not_found);
  });
});
