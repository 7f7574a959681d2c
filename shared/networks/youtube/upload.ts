import type { Failure, NetworkContext } from '../../ports/networks';
import { NetworkTimeout, NetworkUnreachable, request, type HttpResult } from '../http';
import { field, str } from '../oauth-tokens';
import { youtubeFailure } from './rules';

/**
 * The byte-sending half of a YouTube resumable upload (videos.insert, uploadType=resumable): PUT chunks with
 * Content-Range to the session URI, read 308 Resume Incomplete + Range, and probe a session with
 * `Content-Range: bytes * /<total>` to learn where it stands after an interruption.
 */

export interface UploadTarget { sessionUri: string; token: string; bytes: Uint8Array; contentType: string }

/** Where an upload stands. */
export type UploadState =
  | { kind: 'done'; videoId: string }
  /** Stopped with bytes [0, offset) stored: the time ran out, or the connection broke / 5xx (probe before going on). */
  | { kind: 'partial'; offset: number; interrupted: boolean }
  /** 404 / 410: the session expired; a new upload has to start. */
  | { kind: 'gone' }
  | { kind: 'failed'; failure: Failure };

/** The next byte to send after a 308: its `Range: bytes=0-N` gives N+1; no Range means nothing is stored yet. */
export function nextOffset(headers: Headers): number | undefined {
  const range = headers.get('range');
  if (!range) return 0;
  const m = /bytes=\d+-(\d+)/.exec(range);
  return m ? Number(m[1]) + 1 : undefined;
}

function settle(res: HttpResult, what: string, now: number, known: number): UploadState {
  if (res.status === 200 || res.status === 201) {
    const id = str(field(res.json, 'id'));
    return id ? { kind: 'done', videoId: id } : { kind: 'failed', failure: { ok: false, kind: 'transient', error: `youtube ${what} finished without a video id` } };
  }
  if (res.status === 308) return { kind: 'partial', offset: nextOffset(res.headers) ?? known, interrupted: false };
  if (res.status === 404 || res.status === 410) return { kind: 'gone' };
  if (res.status >= 500) return { kind: 'partial', offset: known, interrupted: true };
  return { kind: 'failed', failure: youtubeFailure(res, what, now) };
}

const authHeaders = (t: UploadTarget) => ({ authorization: `Bearer ${t.token}`, accept: 'application/json' });

/**
 * Sends the bytes from `offset` in `chunkSize` pieces until the upload completes, a chunk is interrupted (network
 * error, 5xx, no answer) or `stopAt` (ms, on the context's clock) comes: each PUT is aborted when the time left
 * until stopAt has passed (a socket-level timer), leaving time to answer.
 */
export async function sendFrom(ctx: NetworkContext, t: UploadTarget, offset: number, chunkSize: number, stopAt: number): Promise<UploadState> {
  const total = t.bytes.length;
  let at = offset;
  for (;;) {
    const left = stopAt - ctx.now();
    if (left <= 0) return { kind: 'partial', offset: at, interrupted: false };
    const end = Math.min(at + chunkSize, total);
    const chunkDeadline = AbortSignal.timeout(left);
    const bounded: NetworkContext = { ...ctx, signal: AbortSignal.any([ctx.signal, chunkDeadline]) };
    let res: HttpResult;
    try {
      res = await request(bounded, t.sessionUri, {
        method: 'PUT',
        headers: { ...authHeaders(t), 'content-type': t.contentType, 'content-range': `bytes ${at}-${end - 1}/${total}` },
        body: t.bytes.slice(at, end),
      });
    } catch (err) {
      // the time ran out (this chunk's or the call's deadline): not an interruption, the session is intact
      const ranOut = err instanceof NetworkTimeout && (chunkDeadline.aborted || ctx.signal.aborted);
      if (err instanceof NetworkTimeout || err instanceof NetworkUnreachable) return { kind: 'partial', offset: at, interrupted: !ranOut };
      throw err;
    }
    const state = settle(res, 'upload', ctx.now(), at);
    if (state.kind !== 'partial' || state.interrupted) return state;
    // A 308 that stored nothing new would loop forever: stop and let a later run probe the session.
    if (state.offset <= at) return { kind: 'partial', offset: at, interrupted: true };
    at = state.offset;
  }
}

/** Asks the session how many bytes it holds (PUT, empty body, `Content-Range: bytes * /<total>`). */
export async function probe(ctx: NetworkContext, t: UploadTarget, known: number): Promise<UploadState> {
  let res: HttpResult;
  try {
    res = await request(ctx, t.sessionUri, {
      method: 'PUT', headers: { ...authHeaders(t), 'content-range': `bytes */${t.bytes.length}` }, body: new Uint8Array(0),
    });
  } catch (err) {
    if (err instanceof NetworkTimeout || err instanceof NetworkUnreachable) return { kind: 'partial', offset: known, interrupted: true };
    throw err;
  }
  return settle(res, 'upload status', ctx.now(), known);
}
