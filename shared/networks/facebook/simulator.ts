import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { FacebookFake } from './graph-simulator';
import { InstagramFake } from '../instagram/simulator';
import { GRAPH_VERSION } from './graph';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

/**
 * The Meta Graph simulator with the networks' own post kinds: comments under a Page post or an Instagram media
 * (`POST /{id}/comments`), and the Pages Reels flow (`POST /{page}/video_reels` start/finish, the hosted-file upload
 * at the returned upload_url, which checks `Authorization: OAuth <page token>` and the `file_url` header as
 * rupload.facebook.com does).
 */

/** Comments are taken on a Page post (`<page>_<post>`) or a published Instagram media (`180…`). */
const commentable = (id: string) => /^\d+_\d+$/.test(id) || /^180\d+$/.test(id);

/**
 * One Graph simulator for both networks (the sandbox serves Facebook and Instagram from one origin; Instagram's
 * simulator takes it as its peer): the Instagram fake plus comments and the Pages Reels flow.
 */
export class MetaKindsFake extends InstagramFake {
  /** Reels by video id: the file URL Facebook pulled and whether it was published. */
  readonly reels = new Map<string, { file_url?: string; published: boolean; description?: string }>();
  private comments = 0;

  override reset(): void {
    super.reset();
    this.reels.clear();
    this.comments = 0;
  }

  uploadPath(videoId: string): string { return `/video-upload/${GRAPH_VERSION}/${videoId}`; }

  protected override route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const upload = /^\/video-upload\/[^/]+\/(\d+)$/.exec(req.path);
    if (upload && req.method === 'POST') {
      const queued = this.playQueued(`POST ${req.path}`, req);
      if (queued) return queued;
      const reel = this.reels.get(upload[1]);
      const token = /^OAuth (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!reel) return FacebookFake.error(100, 'Invalid video id');
      if (!token || !this.oauth.valid(token) || !token.includes('page')) return FacebookFake.error(190, 'Invalid OAuth access token.');
      const fileUrl = req.headers.file_url;
      if (typeof fileUrl !== 'string' || !fileUrl) return FacebookFake.error(100, 'file_url header is required');
      reel.file_url = fileUrl;
      return { body: { success: true } };
    }
    return super.route(req);
  }

  protected override extra(req: RecordedRequest, key: string, params: Record<string, string>): FakeReply | undefined {
    const [method, path] = key.split(' ');
    const [, id, edge] = path.split('/');
    if (method === 'POST' && edge === 'comments') {
      if (!commentable(id)) return FacebookFake.error(100, `Unsupported post request. Object with ID '${id}' does not exist`, 33);
      if (!params.message) return FacebookFake.error(100, '(#100) Missing message');
      return { body: { id: `${id}_c${++this.comments}` } };
    }
    const page = this.pages.find((p) => p.id === id);
    if (method === 'POST' && page && edge === 'video_reels') {
      if (!(params.access_token ?? '').includes(`page${page.id}`)) return FacebookFake.error(200, '(#200) The user hasn\'t authorized the application to perform this action');
      if (params.upload_phase === 'start') {
        const videoId = String(6000 + ++this.n);
        this.reels.set(videoId, { published: false });
        return { body: { video_id: videoId, upload_url: `${this.url}${this.uploadPath(videoId)}` } };
      }
      if (params.upload_phase === 'finish') {
        const reel = this.reels.get(params.video_id ?? '');
        if (!reel?.file_url) return FacebookFake.error(100, 'The video was not uploaded', 1363040);
        if (params.video_state !== 'PUBLISHED') return FacebookFake.error(100, 'video_state must be PUBLISHED, DRAFT or SCHEDULED');
        reel.published = true;
        reel.description = params.description;
        return { body: { success: true } };
      }
      return FacebookFake.error(100, 'upload_phase must be start or finish');
    }
    return super.extra(req, key, params);
  }
}

const readGraph = readByPaths(/\/(feed|photos|videos|media|media_publish|comments)$/, [
  ['DELETE', /^\/v[\d.]+\/\d+(_\d+)?$/, 'deleted'], ['POST', /^\/v[\d.]+\/\d+(_\d+)?$/, 'edited'],
]);

/**
 * Facebook in the sandbox of `npm start`: the one Graph API host, which Instagram's simulator shares
 * (shared/networks/sandbox-kit/sandbox-simulator.ts).
 */
export const simulator: SandboxSimulator<MetaKindsFake> = {
  create: () => new MetaKindsFake(),
  servers: (fake) => ({ facebook: fake.server }),
  env: (fake) => oauthEnv('FACEBOOK', fake, { FACEBOOK_API_BASE: fake.url }),
  // an Instagram media container (image_url) is shown as Instagram's
  read: (req, fields) => {
    const seen = readGraph(req);
    return seen?.kind === 'post' && /\/media$/.test(req.path) && 'image_url' in fields ? { ...seen, network: 'instagram' } : seen;
  },
};
