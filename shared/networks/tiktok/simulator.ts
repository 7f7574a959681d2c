import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { TikTokFake } from './api-simulator';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

/**
 * The TikTok simulator with the FILE_UPLOAD path (api-simulator.ts holds sign-in, Direct Post, status and query):
 * video init with PULL_FROM_URL answers url_ownership_unverified unless the link starts with `verifiedPrefix`;
 * init with {source: FILE_UPLOAD, video_size, chunk_size, total_chunk_count} checks TikTok's chunk rules and answers
 * an upload_url on this server; `PUT /upload/<publish id>` takes the chunks in order, checking Content-Range
 * (201 Created for the last, 206 Partial Content before). A completed upload's publish is then followed by status
 * fetch like any other.
 */
export class TikTokUploadFake extends TikTokFake {
  verifiedPrefix = 'https://verified.example.com/';
  /** TikTok's rule: files under 5 MB go as one chunk (tests lower it to exercise several chunks with small files). */
  minChunkBytes = 5 * 1024 * 1024;
  readonly uploads = new Map<string, { size: number; chunk: number; count: number; received: Buffer[]; ranges: string[] }>();

  override reset(): void {
    super.reset();
    this.uploads.clear();
    this.verifiedPrefix = 'https://verified.example.com/';
  }

  protected override route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'POST /v2/post/publish/video/init/' && this.bearerOk(req)) {
      const body = (req.json ?? {}) as { post_info?: Record<string, unknown>; source_info?: Record<string, unknown> };
      const source = body.source_info ?? {};
      if (source.source === 'PULL_FROM_URL' && typeof source.video_url === 'string' && !source.video_url.startsWith(this.verifiedPrefix)) {
        return TikTokFake.error(403, 'url_ownership_unverified', 'Please review our URL ownership verification rules.');
      }
      if (source.source === 'FILE_UPLOAD') {
        const size = Number(source.video_size);
        const chunk = Number(source.chunk_size);
        const count = Number(source.total_chunk_count);
        const whole = size < this.minChunkBytes ? chunk === size && count === 1 : count === Math.floor(size / chunk);
        if (!size || !chunk || !whole) return TikTokFake.error(400, 'invalid_params', 'chunk_size / total_chunk_count do not fit video_size');
        if (!this.privacyOptions.includes(String(body.post_info?.privacy_level))) return TikTokFake.error(400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator\'s options');
        const id = `v_inbox_file~v2-1.${7000 + ++this.n}`;
        this.uploads.set(id, { size, chunk, count, received: [], ranges: [] });
        this.publishes.set(id, { id, kind: 'video', polls: this.processingPolls, body });
        return { status: 200, body: { data: { publish_id: id, upload_url: `${this.url}/upload/${encodeURIComponent(id)}` }, error: { code: 'ok', message: '', log_id: 'L' } } };
      }
    }
    const put = /^\/upload\/(.+)$/.exec(req.path);
    if (put && req.method === 'PUT') {
      const up = this.uploads.get(decodeURIComponent(put[1]));
      if (!up) return { status: 404, body: 'unknown upload' };
      const i = up.received.length;
      const first = i * up.chunk;
      const last = i === up.count - 1 ? up.size - 1 : first + up.chunk - 1;
      const range = String(req.headers['content-range'] ?? '');
      if (range !== `bytes ${first}-${last}/${up.size}` || req.body.length !== last - first + 1) return { status: 416, body: 'Content-Range does not match the next chunk' };
      up.received.push(req.body);
      up.ranges.push(range);
      return { status: i === up.count - 1 ? 201 : 206 };
    }
    return super.route(req);
  }
}

/** TikTok in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<TikTokUploadFake> = {
  create: () => new TikTokUploadFake(),
  servers: (fake) => ({ tiktok: fake.server }),
  // the sample media are on a domain "verified" for the simulated TikTok app (other links go as FILE_UPLOAD)
  mounted: (fake, origin) => { fake.verifiedPrefix = `${origin}/sandbox/media/`; },
  env: (fake) => oauthEnv('TIKTOK', fake, { TIKTOK_API_BASE: fake.url }),
  read: readByPaths(/^\/v2\/post\/publish\/(video|content)\/init\/$/),
};
