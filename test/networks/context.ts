import type { NetworkContext } from '../../shared/ports/networks';
import { MediaUnreachable } from '../../shared/ports/networks';

/** A NetworkContext for adapter tests: real fetch against loopback fakes, a short deadline, recorded pacing. */
export function testContext(credentials: Record<string, string>, opts: { timeoutMs?: number; paceWaitMs?: number } = {}) {
  const timeoutMs = opts.timeoutMs ?? 2000;
  const paced: Array<{ key: string; spacingMs: number }> = [];
  const ctx: NetworkContext = {
    credentials,
    deadline: Date.now() + timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
    fetch: globalThis.fetch,
    async fetchMedia(url: string) {
      let res: Response;
      try { res = await fetch(url); } catch (err) { throw new MediaUnreachable(`media ${url} could not be downloaded`, err); }
      if (!res.ok) throw new MediaUnreachable(`media ${url} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { bytes, content_type: res.headers.get('content-type') ?? 'application/octet-stream', filename: url.split('/').pop() || 'media' };
    },
    async fetchDocument(url: string) {
      let res: Response;
      try { res = await fetch(url); } catch (err) { throw new MediaUnreachable(`document ${url} could not be downloaded`, err); }
      if (!res.ok) throw new MediaUnreachable(`document ${url} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { bytes, content_type: res.headers.get('content-type') ?? 'application/octet-stream', filename: url.split('/').pop() || 'document' };
    },
    async pace(key: string, spacingMs: number) {
      paced.push({ key, spacingMs });
      return opts.paceWaitMs ?? 0;
    },
    now: () => Date.now(),
    sleep: (ms: number) => new Promise((r) => setTimeout(r, ms)),
  };
  return { ctx, paced };
}

/** A test context whose sleeps are recorded and cut short (1 ms each) instead of waited in full. */
export function ctxWithSleeps(credentials: Record<string, string>, timeoutMs?: number) {
  const { ctx } = testContext(credentials, { timeoutMs });
  const sleeps: number[] = [];
  ctx.sleep = async (ms) => { sleeps.push(ms); await new Promise((r) => setTimeout(r, 1)); };
  return { ctx, sleeps };
}
