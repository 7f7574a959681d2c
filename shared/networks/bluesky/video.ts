import type { Failure, FetchedMedia, NetworkContext } from '../../ports/networks';
import { rejected, request } from '../http';
import { field, str, xrpcFailure, type Session } from './xrpc';

/**
 * Bluesky video upload (the video service, default https://video.bsky.app):
 * 1. `GET {pds}/xrpc/com.atproto.server.getServiceAuth?aud=did:web:<the account's PDS host>&lxm=com.atproto.repo.uploadBlob&exp=<now+30 min>`
 *    → a service token the video service presents to the PDS when it stores the processed blob;
 * 2. `POST {video}/xrpc/app.bsky.video.uploadVideo?did=<did>&name=<file>` (raw bytes, Bearer service token) → a job;
 * 3. `GET {video}/xrpc/app.bsky.video.getJobStatus?jobId=` until JOB_STATE_COMPLETED with the blob (or JOB_STATE_FAILED).
 * Polling pauses with ctx.sleep inside the call's deadline; a job still running then is handed back for a later resume.
 */

export type VideoJob = { state: 'done'; blob: unknown } | { state: 'processing'; job_id: string };

export interface VideoService {
  base: string;
  pollIntervalMs: number;
  /** Time kept after the last poll for posting the record. */
  reserveMs: number;
}

const SERVICE_TOKEN_SECONDS = 30 * 60;

const jobOf = (body: unknown): unknown => field(body, 'jobStatus') ?? body;

/** Reads one JobStatus: done (blob), failed (bad_media) or still running. */
function readJob(job: unknown, fallbackId: string): VideoJob | Failure {
  const state = str(field(job, 'state'));
  const blob = field(job, 'blob');
  if (blob) return { state: 'done', blob };
  if (state === 'JOB_STATE_FAILED') {
    const why = str(field(job, 'message')) ?? str(field(job, 'error')) ?? 'no reason given';
    return { ok: false, kind: 'rejected', code: 'bad_media', error: `bluesky could not process the video: ${why}`,
      what: 'Bluesky\'s video service refused or failed to process the video; nothing was posted.',
      fix: 'Send an MP4 (H.264/AAC) under 3 minutes and 100 MB; if it already is, re-encode it and send it again.' };
  }
  return { state: 'processing', job_id: str(field(job, 'jobId')) ?? fallbackId };
}

/** Uploads the video and polls its job while the deadline allows. */
export async function uploadVideo(ctx: NetworkContext, pdsBase: string, service: VideoService, session: Session, file: FetchedMedia): Promise<VideoJob | Failure> {
  const pdsHost = new URL(session.pds ?? pdsBase).host;
  const exp = Math.floor(ctx.now() / 1000) + SERVICE_TOKEN_SECONDS;
  const auth = await request(ctx, `${pdsBase}/xrpc/com.atproto.server.getServiceAuth?${new URLSearchParams({
    aud: `did:web:${pdsHost}`, lxm: 'com.atproto.repo.uploadBlob', exp: String(exp),
  })}`, { headers: { authorization: `Bearer ${session.accessJwt}`, accept: 'application/json' } });
  if (auth.status !== 200) return xrpcFailure(auth, 'video upload authorisation', ctx.now());
  const token = str(field(auth.json, 'token'));
  if (!token) return { ok: false, kind: 'transient', error: 'bluesky service auth answered without a token' };

  const name = /\.(mp4|mov|webm)$/i.test(file.filename) ? file.filename : `video.${file.content_type === 'video/quicktime' ? 'mov' : file.content_type === 'video/webm' ? 'webm' : 'mp4'}`;
  const res = await request(ctx, `${service.base}/xrpc/app.bsky.video.uploadVideo?${new URLSearchParams({ did: session.did, name })}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': file.content_type, accept: 'application/json' },
    body: new Uint8Array(file.bytes),
  });
  // 409 already_exists: the same file was uploaded before; its job (and blob) is reused
  const existing = res.status === 409 ? str(field(res.json, 'jobId')) : undefined;
  if (res.status !== 200 && !existing) {
    const failure = xrpcFailure(res, 'video upload', ctx.now());
    if (failure.kind === 'rejected') return { ...failure, code: 'bad_media' };
    // the video service refusing the service token it was just given is not the member's sign-in failing
    return failure.kind === 'reauth' ? { ok: false, kind: 'transient', error: `${failure.error}; the video service refused the upload authorisation, nothing was posted` } : failure;
  }
  const job = existing ? { state: 'processing' as const, job_id: existing } : readJob(jobOf(res.json), '');
  if ('ok' in job || job.state === 'done') return job;
  if (!job.job_id) return { ok: false, kind: 'transient', error: 'bluesky video upload answered without a job id' };
  return pollVideoJob(ctx, service, job.job_id);
}

/** Polls getJobStatus until done, failed, or the deadline (less the reserve) would pass. */
export async function pollVideoJob(ctx: NetworkContext, service: VideoService, jobId: string): Promise<VideoJob | Failure> {
  for (;;) {
    const res = await request(ctx, `${service.base}/xrpc/app.bsky.video.getJobStatus?${new URLSearchParams({ jobId })}`, { headers: { accept: 'application/json' } });
    if (res.status === 404) return rejected(`bluesky video job ${jobId} no longer exists`, 'bad_media');
    if (res.status !== 200) return xrpcFailure(res, 'video job status', ctx.now());
    const job = readJob(jobOf(res.json), jobId);
    if ('ok' in job || job.state === 'done') return job;
    if (ctx.now() + service.pollIntervalMs + service.reserveMs > ctx.deadline) return job;
    await ctx.sleep(service.pollIntervalMs);
  }
}
