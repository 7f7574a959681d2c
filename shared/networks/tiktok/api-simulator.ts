import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { formOf, OAuthAuthority, OAuthFake } from '../sandbox-kit/oauth-authority';
import { SimulatedFigures } from '../sandbox-kit/figures';

interface Publish { id: string; kind: 'video' | 'photo'; polls: number; body: unknown }

/**
 * A loopback TikTok: the authorize page (`GET /v2/auth/authorize/`, auto-consent), the token endpoint
 * (`POST /v2/oauth/token/`, client_key + client_secret in the form; refresh keeps the refresh token unless `oauth.rotate`),
 * user info, creator info, video and photo Direct Post init (PULL_FROM_URL), the publish status and the video query
 * (`POST /v2/video/query/`: the completed videos among filters.video_ids, with growing counts), answering in
 * TikTok's envelope `{data, error: {code, message, log_id}}`.
 * `processingPolls` = how many status checks answer PROCESSING_DOWNLOAD before the outcome; `failReason` makes the
 * outcome FAILED; `publicId` false leaves publicaly_available_post_id empty. `failNext(route, reply)` plays a reply
 * once for that route ("POST /v2/post/publish/video/init/"); `revoke()` ends every grant.
 */
export class TikTokFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({
    prefix: 'tt', clientId: 'tt-client-key', clientSecret: 'tt-client-secret', clientParam: 'client_key', scopeSeparator: ',', standingToken: 'tt-good-token',
  });
  openId = '-000OpenIdAcme';
  username = 'acme.studio';
  privacyOptions = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
  processingPolls = 0;
  failReason?: string;
  publicId = true;
  readonly publishes = new Map<string, Publish>();
  /** The counts a video published here shows to `POST /v2/video/query/` (plausible and growing: sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures();

  get clientKey(): string { return this.oauth.clientId; }
  /** The fixed token adapter tests use without a sign-in. */
  get token(): string { return this.oauth.standingToken!; }

  override reset(): void {
    super.reset();
    this.publishes.clear();
    this.privacyOptions = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
    this.processingPolls = 0;
    this.failReason = undefined;
    this.publicId = true;
  }

  /** The public id TikTok gives a completed publish (19 digits, more than a double holds exactly). */
  postId(p: { id: string }): string { return `730123456789012${p.id.split('.').pop()}`; }

  static error(status: number, code: string, message: string): FakeReply {
    return { status, body: { data: {}, error: { code, message, log_id: '20261101000000ABCDEF' } } };
  }

  private ok(data: unknown): FakeReply {
    return { status: 200, body: { data, error: { code: 'ok', message: '', log_id: '20261101000000ABCDEF' } } };
  }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'GET /v2/auth/authorize/') return this.oauth.authorize(req.url);
    if (key === 'POST /v2/oauth/token/') return this.tokenEndpoint(req);
    if (!this.bearerOk(req)) {
      return TikTokFake.error(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    }
    const body = (req.json ?? {}) as Record<string, unknown>;
    switch (key) {
      case 'GET /v2/user/info/':
        return this.ok({ user: { open_id: this.openId, union_id: 'union-1', avatar_url: 'https://p16.tiktokcdn.com/a.jpeg', display_name: 'Acme Studio' } });
      case 'POST /v2/post/publish/creator_info/query/':
        return this.ok({
          creator_avatar_url: 'https://p16.tiktokcdn.com/a.jpeg', creator_username: this.username, creator_nickname: 'Acme Studio',
          privacy_level_options: this.privacyOptions, comment_disabled: false, duet_disabled: true, stitch_disabled: false, max_video_post_duration_sec: 600,
        });
      case 'POST /v2/post/publish/video/init/':
      case 'POST /v2/post/publish/content/init/': {
        const post = (body.post_info ?? {}) as Record<string, unknown>;
        if (!this.privacyOptions.includes(String(post.privacy_level))) {
          return TikTokFake.error(400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator\'s options');
        }
        const source = (body.source_info ?? {}) as Record<string, unknown>;
        const photos = Array.isArray(source.photo_images) ? source.photo_images : undefined;
        if (source.source !== 'PULL_FROM_URL' || (key.includes('video') ? typeof source.video_url !== 'string' : !photos || photos.length > 35)) {
          return TikTokFake.error(400, 'invalid_params', 'source_info is invalid');
        }
        const kind = key.includes('video') ? 'video' : 'photo';
        const id = `${kind === 'video' ? 'v_pub_url' : 'p_pub_url'}~v2-1.${7000 + ++this.n}`;
        this.publishes.set(id, { id, kind, polls: this.processingPolls, body });
        return this.ok({ publish_id: id });
      }
      case 'POST /v2/post/publish/status/fetch/': {
        const p = this.publishes.get(String(body.publish_id));
        if (!p) return TikTokFake.error(400, 'invalid_publish_id', 'publish_id does not exist');
        if (p.polls > 0) {
          p.polls--;
          return this.ok({ status: 'PROCESSING_DOWNLOAD', uploaded_bytes: 0 });
        }
        if (this.failReason) return this.ok({ status: 'FAILED', fail_reason: this.failReason });
        if (!this.publicId) return this.ok({ status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [] });
        this.figures.published(this.postId(p));
        // TikTok sends the post id as a JSON int64, beyond a double's precision: written raw here as TikTok does.
        const text = JSON.stringify({ data: { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: ['@ID@'] }, error: { code: 'ok', message: '', log_id: 'L' } });
        return { status: 200, headers: { 'content-type': 'application/json' }, body: text.replace('"@ID@"', this.postId(p)) };
      }
      case 'POST /v2/video/query/': {
        // the user's published videos among the asked ids (at most 20), with the fields asked for
        const ids = (body.filters as { video_ids?: unknown } | undefined)?.video_ids;
        if (!Array.isArray(ids) || !ids.length || ids.length > 20) return TikTokFake.error(400, 'invalid_params', 'filters.video_ids must hold 1 to 20 ids');
        const fields = (req.url.searchParams.get('fields') ?? '').split(',');
        const videos = [...this.publishes.values()].filter((p) => p.kind === 'video' && p.polls === 0 && ids.includes(this.postId(p))).map((p) => {
          const f = this.figures.of(this.postId(p));
          const all: Record<string, unknown> = { id: this.postId(p), view_count: f.views, like_count: f.likes, comment_count: f.comments, share_count: f.shares };
          return Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k)));
        });
        return this.ok({ videos, cursor: 0, has_more: false });
      }
      default:
        return TikTokFake.error(404, 'not_found', 'no such endpoint');
    }
  }

  private tokenEndpoint(req: RecordedRequest): FakeReply {
    const f = formOf(req.text);
    const fail = (error: string, description: string, status = 400): FakeReply => ({ status, body: { error, error_description: description, log_id: 'LOG1' } });
    if (!this.oauth.clientOk(f.client_key, f.client_secret)) return fail('invalid_client', 'Client key or secret is incorrect.', 401);
    const result = this.oauth.tokenRequest(f, f.client_key);
    if (!result) return fail('unsupported_grant_type', 'grant_type is not supported.');
    if (!result.ok) return fail(result.error, result.description);
    return {
      status: 200,
      body: {
        access_token: result.access_token, expires_in: 86400, open_id: this.openId, refresh_expires_in: 31536000,
        refresh_token: result.refresh_token, scope: result.scope.split(' ').join(','), token_type: 'Bearer',
      },
    };
  }
}
