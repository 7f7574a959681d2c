import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, parseConfig } from '../../shared/config';
import { client, startRuntime } from '../support/runtime';

const ROOT = path.join(__dirname, '..', '..');

describe('configuration is checked at start', () => {
  it('an empty value means unset: the default applies', () => {
    const cfg = parseConfig({ ALLOW_PRIVATE_TARGETS: '', LOG_LEVEL: '', NETWORK_TIMEOUT_MS: ' ', TELEGRAM_API_BASE: '' });
    expect(cfg).toMatchObject({ ALLOW_PRIVATE_TARGETS: false, LOG_LEVEL: 'info', NETWORK_TIMEOUT_MS: 20_000, TELEGRAM_API_BASE: 'https://api.telegram.org' });
  });

  it.each([
    ['ALLOW_PRIVATE_TARGETS', 'yes', 'one of 0, 1, true, false'],
    ['LOG_LEVEL', 'loud', 'one of debug, info, warn, error, silent'],
    ['TELEGRAM_API_BASE', 'not a url', 'an absolute URL'],
    ['NETWORK_TIMEOUT_MS', 'soon', 'a number'],
  ])('%s=%s is refused with one line naming the variable and what is allowed', (name, value, allowed) => {
    let err: unknown;
    try { parseConfig({ [name]: value }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).message;
    expect(message).toContain(`${name}=${JSON.stringify(value)}`);
    expect(message).toContain(allowed);
    expect(message).not.toContain('\n');
  });

  it('the local runtime with ALLOW_PRIVATE_TARGETS= (empty) serves requests', async () => {
    const rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '' });
    try {
      expect((await client(rt.url)('GET', '/api/platforms')).status).toBe(200);
    } finally {
      await rt.stop();
    }
  });

  it('the local runtime refuses to start with an invalid variable, before starting anything', async () => {
    await expect(startRuntime({ LOG_LEVEL: 'loud' })).rejects.toThrow(/^Invalid environment variable LOG_LEVEL="loud": expected one of/);
  });

  it('npm start (bin/local.ts) stops at start with exactly one line naming the variable', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-config-'));
    const res = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bin/local.ts'], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), PORT: '0', DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'yes' },
    });
    expect(res.status).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual(['could not start: Invalid environment variable ALLOW_PRIVATE_TARGETS="yes": expected one of 0, 1, true, false (or leave it empty for the default)']);
    expect(res.stdout).not.toContain('listening');
  });
});
