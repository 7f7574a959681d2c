import type { FakeReply, FakeServer, RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';

/**
 * Checks every request a loopback fake receives against a network's published contract, as it arrives (so a test
 * that clears the recorded requests midway cannot skip one); with `answers`, the fake's replies too. Returns the violations seen since the last `take()`;
 * a test file asserts `take()` is empty after each test.
 */
export function watchContract(
  server: FakeServer, check: ((req: RecordedRequest) => string[] | Promise<string[]>) & { answer?: (req: RecordedRequest, reply: FakeReply) => Promise<string[]> },
  opts: { answers?: boolean } = {},
): { take(): string[] } {
  const seen: string[] = [];
  const answer = server.handler;
  server.handler = async (req) => {
    const reply = await answer(req);
    // `answers`: the simulator's reply is checked too, so the simulator answers as the document says
    const violations = opts.answers && check.answer ? await check.answer(req, reply) : await check(req);
    for (const v of violations) seen.push(`${req.method} ${req.path}: ${v}`);
    return reply;
  };
  return { take: () => seen.splice(0) };
}
