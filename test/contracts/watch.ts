import type { FakeServer, RecordedRequest } from '../../infra/local/sandbox/server';

/**
 * Checks every request a loopback fake receives against a network's published contract, as it arrives (so a test
 * that clears the recorded requests midway cannot skip one). Returns the violations seen since the last `take()`;
 * a test file asserts `take()` is empty after each test.
 */
export function watchContract(server: FakeServer, check: (req: RecordedRequest) => string[] | Promise<string[]>): { take(): string[] } {
  const seen: string[] = [];
  const answer = server.handler;
  server.handler = async (req) => {
    for (const v of await check(req)) seen.push(`${req.method} ${req.path}: ${v}`);
    return answer(req);
  };
  return { take: () => seen.splice(0) };
}
