import { spawn } from 'node:child_process';
import path from 'node:path';
import { startRuntime } from '../support/runtime';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';
import { runSmoke } from '../../bin/smoke';

let rt: LocalRuntime;
const discord = new DiscordFake();
const ROOT = path.resolve(__dirname, '..', '..');

beforeAll(async () => {
  await discord.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1' });
});
afterAll(async () => {
  await rt?.stop();
  await discord.stop();
});

describe('npm run smoke against the local runtime', () => {
  it('passes every step: catalog, sign-up via the mailbox hook, key, connect, webhook, post, signed webhook back', async () => {
    const lines: string[] = [];
    const res = await runSmoke({ baseUrl: rt.url, network: 'discord', credentials: { webhook_url: discord.webhookUrl }, timeoutSeconds: 20, log: (l) => lines.push(l) });
    expect(res.steps.map((s) => [s.step, s.ok])).toEqual([
      ['catalog', true], ['sign-up through the mailbox hook', true], ['key works', true], ['connect discord', true],
      ['register a webhook', true], ['post to discord', true], ['webhook round trip', true], ['clean up', true],
    ]);
    expect(res.ok).toBe(true);
    expect(lines.find((l) => l.startsWith('✓ webhook round trip'))).toContain('post.published received, signature valid');
  });

  it('reports the failing step: a network refusing the post fails the smoke', async () => {
    discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const res = await runSmoke({ baseUrl: rt.url, network: 'discord', credentials: { webhook_url: discord.webhookUrl }, timeoutSeconds: 5 });
    expect(res.ok).toBe(false);
    expect(res.steps.at(-1)).toMatchObject({ step: 'post to discord', ok: false, detail: expect.stringContaining('rejected') });
  });

  it('runs as `npm run smoke -- --base-url …` (exit 0)', async () => {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['bin/smoke.ts', '--base-url', rt.url, '--network', 'discord', '--credentials', JSON.stringify({ webhook_url: discord.webhookUrl })], { cwd: ROOT, stdio: 'ignore' });
      child.on('close', resolve);
    });
    expect(code).toBe(0);
  });
});
