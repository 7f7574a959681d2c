import { atprotoCid } from '../sandbox-kit/atproto-cid';
import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';

/**
 * A loopback Bluesky video service (video.bsky.app): `app.bsky.video.uploadVideo` answers a JobStatus and
 * `app.bsky.video.getJobStatus` walks each job through `states` (one per poll) before completing it with a blob.
 * Requests are recorded for exact assertions; `override(nsid, reply)` replaces one endpoint's answer.
 */
export class BlueskyVideoFake extends NetworkSimulator {
  /** The states a job reports on successive getJobStatus calls; past the end it is JOB_STATE_COMPLETED with a blob. */
  states: string[] = ['JOB_STATE_ENCODING'];
  readonly overrides = new Map<string, (req: RecordedRequest) => FakeReply>();
  private readonly polls = new Map<string, number>();
  private jobs = 0;


  override reset(): void {
    super.reset();
    this.overrides.clear();
    this.polls.clear();
    this.states = ['JOB_STATE_ENCODING'];
    this.jobs = 0;
  }

  override(nsid: string, reply: FakeReply | ((req: RecordedRequest) => FakeReply)): void {
    this.overrides.set(nsid, typeof reply === 'function' ? reply : () => reply);
  }

  calls(nsid: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === `/xrpc/${nsid}`);
  }

  static blob(jobId: string, size: number) {
    return { $type: 'blob', ref: { $link: atprotoCid('raw', `video-${jobId}`) }, mimeType: 'video/mp4', size };
  }

  private readonly sizes = new Map<string, number>();

  protected route(req: RecordedRequest): FakeReply {
    const nsid = req.path.replace(/^\/xrpc\//, '');
    const override = this.overrides.get(nsid);
    if (override) return override(req);
    switch (nsid) {
      case 'app.bsky.video.uploadVideo': {
        if (req.headers.authorization !== 'Bearer service-token-1') return { status: 401, body: { error: 'AuthMissing', message: 'Authentication Required' } };
        const jobId = `job${++this.jobs}`;
        this.sizes.set(jobId, req.body.length);
        return { status: 200, body: { jobStatus: { jobId, did: req.url.searchParams.get('did'), state: 'JOB_STATE_CREATED' } } };
      }
      case 'app.bsky.video.getJobStatus': {
        const jobId = req.url.searchParams.get('jobId') ?? '';
        if (!this.sizes.has(jobId)) return { status: 404, body: { error: 'NotFound', message: 'job not found' } };
        const n = this.polls.get(jobId) ?? 0;
        this.polls.set(jobId, n + 1);
        const state = this.states[n];
        if (state === 'JOB_STATE_FAILED') return { status: 200, body: { jobStatus: { jobId, did: 'did:plc:alice', state, error: 'Video too long', message: 'Video is longer than 3 minutes' } } };
        if (state) return { status: 200, body: { jobStatus: { jobId, did: 'did:plc:alice', state, progress: 50 } } };
        return { status: 200, body: { jobStatus: { jobId, did: 'did:plc:alice', state: 'JOB_STATE_COMPLETED', blob: BlueskyVideoFake.blob(jobId, this.sizes.get(jobId)!) } } };
      }
      default:
        return { status: 501, body: { error: 'MethodNotImplemented', message: `no ${nsid}` } };
    }
  }
}
