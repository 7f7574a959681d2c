import fs from 'node:fs';
import path from 'node:path';

/**
 * Product code reads time and waits only through the injected clock (deps.clock, or ctx.now/ctx.sleep in network
 * adapters), so tests drive time instead of sleeping. The exceptions are named: the clock port itself, socket-level
 * timeouts that abort a connection (never a wait), and the receivers' self-contained verification helper. The
 * networks' simulators (each network's `simulator.ts` / `*-simulator.ts` and their kit, shared/networks/sandbox-kit)
 * are not product code: they stand in for the networks, which keep their own time, and only the local sandbox loads them.
 */
const ROOT = path.resolve(__dirname, '../..');
const ALLOWED: Record<string, string> = {
  'shared/ports/clock.ts': 'the real clock behind the port',
  'shared/net/media.ts': 'socket-level timeout of the media probe',
  'shared/net/pinned-request.ts': 'socket-level timeout of a pinned request',
  'shared/networks/nostr/relays.ts': 'socket-level timeout of a relay connection',
  'shared/webhooks/verify.ts': 'receiver code, copied into receivers; the service never checks a timestamp with it',
};
const STAND_INS = /^shared\/networks\/(sandbox-kit\/.*|[a-z_]+\/([a-z-]+-)?simulator\.ts)$/;
const REAL_TIME = /\bDate\.now\(|new Date\(\)|\bsetTimeout\(|\bsetInterval\(|performance\.now\(/;

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

describe('time in product code', () => {
  it('no file under shared/ or functions/ reads the real clock or sleeps on a timer, except the named ones', () => {
    const offenders = [...sources('shared'), ...sources('functions')]
      .filter((file) => !(file in ALLOWED) && !STAND_INS.test(file))
      .flatMap((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')
        .map((line, i) => ({ at: `${file}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => REAL_TIME.test(line) && !line.startsWith('*') && !line.startsWith('//')));
    expect(offenders).toEqual([]);
  });

  it('the named exceptions still need their exception (a stale entry is removed)', () => {
    for (const file of Object.keys(ALLOWED)) expect({ file, uses: REAL_TIME.test(fs.readFileSync(path.join(ROOT, file), 'utf8')) }).toEqual({ file, uses: true });
  });
});
