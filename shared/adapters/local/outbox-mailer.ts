import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../ports/clock';
import type { Email, Mailer } from '../../ports/mailer';

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sent_at: string;
}

let lastStamp = 0;

/**
 * A sortable stamp: milliseconds × 1000 plus a counter, so emails sent in the same millisecond still sort in order
 * within this process. Zero-padded so names sort as text.
 */
function nextStamp(nowMs: number): string {
  lastStamp = Math.max(nowMs * 1000, lastStamp + 1);
  return String(lastStamp).padStart(17, '0');
}

/**
 * The Mailer port for local mode: each email becomes `<dir>/<timestamp>-<random>.json` holding
 * `{to, subject, text, html, links, sent_at}`; `readOutbox` lists them for `GET /dev/outbox` and tests.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly dir: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async send(email: Email): Promise<void> {
    const now = this.clock.now();
    const entry: OutboxEntry = {
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      links: [...email.links],
      sent_at: new Date(now).toISOString(),
    };
    await mkdir(this.dir, { recursive: true });
    const name = `${nextStamp(now)}-${randomBytes(4).toString('hex')}.json`;
    // Write then rename, so a reader never sees a half-written file.
    const tmp = join(this.dir, `.${name}.tmp`);
    await writeFile(tmp, JSON.stringify(entry, null, 2));
    await rename(tmp, join(this.dir, name));
  }
}

/** Every email in the outbox, newest first; an absent directory is an empty outbox. */
export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return [];
    throw err;
  }
  const files = names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort().reverse();
  const entries: OutboxEntry[] = [];
  for (const name of files) {
    try {
      entries.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as OutboxEntry);
    } catch {
      // a file removed or edited by hand meanwhile: skip it
    }
  }
  return entries;
}
