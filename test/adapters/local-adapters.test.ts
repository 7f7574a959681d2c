import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalKeyCipher } from '../../shared/adapters/local/local-cipher';
import { OutboxMailer, readOutbox } from '../../shared/adapters/local/outbox-mailer';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-adapters-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LocalKeyCipher', () => {
  it('round-trips, creating a 32-byte key file with mode 0600 in a new directory', async () => {
    const keyFile = join(dir, 'nested', 'keys', 'local.key');
    const cipher = new LocalKeyCipher(keyFile);
    const token = await cipher.encrypt('app-password ✓');
    expect(token).toMatch(/^l1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(token).not.toContain('app-password');
    expect(await cipher.decrypt(token)).toBe('app-password ✓');

    const info = await stat(keyFile);
    expect(info.size).toBe(32);
    expect(info.mode & 0o777).toBe(0o600);
  });

  it('detects a tampered ciphertext, tag or iv', async () => {
    const cipher = new LocalKeyCipher(join(dir, 'k'));
    const token = await cipher.encrypt('secret value');
    for (const index of [1, 2, 3]) {
      const parts = token.split('.');
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      parts[index] = bytes.toString('base64url');
      await expect(cipher.decrypt(parts.join('.'))).rejects.toThrow();
    }
    await expect(cipher.decrypt('v1.a.b.c.d')).rejects.toThrow('Unsupported ciphertext format');
  });

  it('keeps the key across instances (restarts), and another key cannot decrypt', async () => {
    const keyFile = join(dir, 'k');
    const token = await new LocalKeyCipher(keyFile).encrypt('persisted');
    const keyBefore = await readFile(keyFile);
    expect(await new LocalKeyCipher(keyFile).decrypt(token)).toBe('persisted');
    expect(await readFile(keyFile)).toEqual(keyBefore);

    await expect(new LocalKeyCipher(join(dir, 'other')).decrypt(token)).rejects.toThrow('failed authentication');
  });

  it('two instances racing on first use end up with one key', async () => {
    const keyFile = join(dir, 'race', 'k');
    const [a, b] = [new LocalKeyCipher(keyFile), new LocalKeyCipher(keyFile)];
    const [ta, tb] = await Promise.all([a.encrypt('from a'), b.encrypt('from b')]);
    expect(await new LocalKeyCipher(keyFile).decrypt(ta)).toBe('from a');
    expect(await new LocalKeyCipher(keyFile).decrypt(tb)).toBe('from b');
    expect(await readdir(join(dir, 'race'))).toEqual(['k']); // no temp files left
  });

  it('refuses a key file of the wrong size', async () => {
    const keyFile = join(dir, 'bad');
    await writeFile(keyFile, 'short');
    await expect(new LocalKeyCipher(keyFile).encrypt('x')).rejects.toThrow('32-byte');
  });
});

describe('OutboxMailer', () => {
  const email = (n: number) => ({
    to: `user${n}@example.com`,
    subject: `Subject ${n}`,
    text: `Text ${n} https://localhost:3000/confirm?t=${n}`,
    html: `<a href="https://localhost:3000/confirm?t=${n}">go</a>`,
    links: [`https://localhost:3000/confirm?t=${n}`],
  });

  it('writes one JSON file per email and lists them newest first', async () => {
    const outbox = join(dir, 'outbox');
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const mailer = new OutboxMailer(outbox, { now: () => now, sleep: async () => {} });
    await mailer.send(email(1));
    now += 1000;
    await mailer.send(email(2));
    await mailer.send(email(3)); // same millisecond as the previous one

    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(3);
    for (const f of files) expect(f).toMatch(/^\d+-[0-9a-f]+\.json$/);

    const listed = await readOutbox(outbox);
    expect(listed.map((e) => e.subject)).toEqual(['Subject 3', 'Subject 2', 'Subject 1']);
    expect(listed[2]).toEqual({ ...email(1), sent_at: '2026-01-01T12:00:00.000Z' });
    expect(listed[0]!.sent_at).toBe('2026-01-01T12:00:01.000Z');
  });

  it('works with the system clock', async () => {
    const outbox = join(dir, 'outbox');
    await new OutboxMailer(outbox).send(email(7));
    const [entry] = await readOutbox(outbox);
    expect(entry?.to).toBe('user7@example.com');
    expect(Math.abs(Date.parse(entry!.sent_at) - Date.now())).toBeLessThan(5000);
  });

  it('reads an absent directory as an empty outbox', async () => {
    expect(await readOutbox(join(dir, 'nothing-here'))).toEqual([]);
  });
});
