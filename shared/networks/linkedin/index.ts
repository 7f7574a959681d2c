import { checkFile } from '../media-fit';
import type { OAuthAccount, OAuthApp, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, FetchedMedia, NetworkAdapter, NetworkContext, PublishContent, PublishOutcome, Published, VerifiedAccount } from '../../ports/networks';
import { badMedia, guarded, jsonInit, rejected, request } from '../http';
import { field, formInit, str, tokenFailure, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { checkLinkedin, escapeLittleText, linkedinFailure } from './rules';
import { createLinkedinManagement } from './manage';
import { encodeUrn, uploadDocument, uploadImage, uploadVideo, videoStatus, type LinkedinApi } from './media';
import { trimBase } from '../../domain/values';
import { linkedinReadBack } from './read-back';

export const LINKEDIN_API_BASE = 'https://api.linkedin.com';
export const LINKEDIN_AUTH_BASE = 'https://www.linkedin.com';
/** The Posts/Images/Videos API version sent as LinkedIn-Version (monthly versions, each supported about a year). */
export const LINKEDIN_VERSION = '202607';
export const LINKEDIN_SCOPES = ['openid', 'profile', 'w_member_social'] as const;
/** Added when organisation pages are on (Community Management API): post as a page, list the pages one administers. */
/** Documents API: PDF (also PPT/PPTX/DOC/DOCX, not offered here) up to 100 MB and 300 pages. */
export const LINKEDIN_DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;
export const LINKEDIN_ORGANIZATION_SCOPES = ['w_organization_social', 'rw_organization_admin', 'r_organization_social'] as const;

export interface LinkedinOptions {
  /** REST API origin (userinfo, /rest/*). Default https://api.linkedin.com. */
  apiBase?: string;
  /** Origin of /oauth/v2/authorization and /oauth/v2/accessToken. Default https://www.linkedin.com. */
  authBase?: string;
  /** LinkedIn-Version header (YYYYMM). */
  version?: string;
  /** Wait between video status polls inside one call. Default 3000 ms. */
  pollIntervalMs?: number;
  /** Time kept before the deadline for creating the post once the video is ready. Default 5000 ms. */
  reserveMs?: number;
  /** When a video is still processing at the deadline: ask to be resumed after this many seconds. Default 30. */
  resumeAfterSeconds?: number;
  /** Give up (bad_media) when a video is still processing this long after the upload. Default 6 h. */
  maxProcessingSeconds?: number;
  /**
   * Organisation pages (LINKEDIN_ORGANIZATIONS): ask for the Community Management scopes too and offer, besides the
   * member, every page the member administers as a target. Off by default: LinkedIn refuses those scopes to apps
   * without the Community Management API product.
   */
  organizations?: boolean;
}

const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}`;
const personUrn = (sub: string) => `urn:li:person:${sub}`;

/**
 * LinkedIn sign-in (OAuth 2.0 authorization code, no PKCE): authorize `/oauth/v2/authorization` with the scopes
 * `openid profile w_member_social`; token `POST /oauth/v2/accessToken` (form, client_id + client_secret in the body).
 * Access tokens live ~60 days. Refresh tokens (~365 days from the first grant) are only issued to apps approved for
 * programmatic refresh: without one, `refresh` answers reauth, i.e. the member signs in again about every 60 days.
 * accounts(): `GET /v2/userinfo` → `sub` → one account, author `urn:li:person:<sub>`. With `organizations`, the scopes
 * add `w_organization_social rw_organization_admin r_organization_social` (the last to read a page's posts back) and accounts() also lists each page the member administers:
 * `GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED` → organization URNs, names from
 * `GET /rest/organizations/<id>` (localizedName), author `urn:li:organization:<id>`.
 */
export function createLinkedinProvider(opts: LinkedinOptions = {}): OAuthProvider {
  const authBase = trimBase(opts.authBase ?? LINKEDIN_AUTH_BASE);
  const apiBase = trimBase(opts.apiBase ?? LINKEDIN_API_BASE);
  const tokenUrl = `${authBase}/oauth/v2/accessToken`;
  const scopes: readonly string[] = opts.organizations ? [...LINKEDIN_SCOPES, ...LINKEDIN_ORGANIZATION_SCOPES] : LINKEDIN_SCOPES;
  const version = opts.version ?? LINKEDIN_VERSION;

  async function tokenCall(ctx: NetworkContext, params: Record<string, string>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res = await request(ctx, tokenUrl, formInit('POST', params));
    if (res.status !== 200) return tokenFailure(res, 'linkedin', what, 'LINKEDIN');
    return tokenSetFrom(res.json, ctx.now(), previous) ?? { ok: false, kind: 'transient', error: `linkedin ${what} answered without an access_token` };
  }

  return {
    name: 'linkedin',
    scopes,
    pkce: false,
    authorizeUrl: ({ app, state }) => urlWithQuery(authBase, '/oauth/v2/authorization', {
      response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, state, scope: scopes.join(' '),
    }),
    exchangeCode: ({ app, code }, ctx) => guarded(() => tokenCall(ctx, {
      grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret,
    }, 'code exchange')),
    refresh: (tokens: TokenSet, app: OAuthApp, ctx: NetworkContext) => guarded(async () => {
      if (!tokens.refresh_token) {
        return { ok: false, kind: 'reauth', error: 'linkedin gave no refresh token (the app is not approved for programmatic refresh): sign in to LinkedIn again' };
      }
      if (tokens.refresh_expires_at !== undefined && tokens.refresh_expires_at <= ctx.now()) {
        return { ok: false, kind: 'reauth', error: 'the linkedin refresh token has expired (a year after the first sign-in): sign in to LinkedIn again' };
      }
      return tokenCall(ctx, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.clientId, client_secret: app.clientSecret }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(async (): Promise<OAuthAccount[] | Failure> => {
      const me = await userinfo(ctx, apiBase, tokens.access_token);
      if ('ok' in me) return me;
      const member: OAuthAccount = { id: me.urn, handle: me.name, credentials: { author_urn: me.urn } };
      if (!opts.organizations) return [member];
      const pages = await organizations(ctx, apiBase, version, tokens.access_token);
      if (!Array.isArray(pages)) return pages;
      return [member, ...pages.map((p) => ({ id: p.urn, handle: p.name, credentials: { author_urn: p.urn } }))];
    }),
  };
}

/** The pages the member administers (approved ADMINISTRATOR role), with their names. */
async function organizations(ctx: NetworkContext, apiBase: string, version: string, token: string): Promise<Array<{ urn: string; name: string }> | Failure> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0' };
  const res = await request(ctx, `${apiBase}/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`, { headers });
  if (res.status !== 200) return linkedinFailure(res, 'organisation list', ctx.now());
  const elements = field(res.json, 'elements');
  const urns = [...new Set((Array.isArray(elements) ? elements : []).map((e) => str(field(e, 'organization'))).filter((u): u is string => !!u && /^urn:li:organization:\d+$/.test(u)))];
  const pages: Array<{ urn: string; name: string }> = [];
  for (const urn of urns) {
    const id = urn.split(':').pop()!;
    const org = await request(ctx, `${apiBase}/rest/organizations/${id}`, { headers });
    pages.push({ urn, name: (org.status === 200 ? str(field(org.json, 'localizedName')) : undefined) ?? `LinkedIn page ${id}` });
  }
  return pages;
}

/** `GET /v2/userinfo` (OpenID Connect) → the member's URN and display name. */
async function userinfo(ctx: NetworkContext, apiBase: string, token: string): Promise<{ urn: string; name: string } | Failure> {
  const res = await request(ctx, `${apiBase}/v2/userinfo`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (res.status !== 200) return linkedinFailure(res, 'profile check', ctx.now());
  const sub = str(field(res.json, 'sub'));
  if (!sub) return { ok: false, kind: 'transient', error: 'linkedin userinfo answered without a sub' };
  const name = str(field(res.json, 'name')) ?? ([str(field(res.json, 'given_name')), str(field(res.json, 'family_name'))].filter(Boolean).join(' ') || sub);
  return { urn: personUrn(sub), name };
}

/**
 * LinkedIn adapter (Posts API). ctx.credentials: `access_token` and `author_urn` (urn:li:person:<sub>, or an
 * urn:li:organization:<id> when the app has organization access).
 * Publish: images are uploaded (initializeUpload + PUT bytes from ctx.fetchMedia) and attached as `content.media`
 * (one, with altText) or `content.multiImage` (2–20, each with altText); a document (PDF, ctx.fetchDocument) is uploaded
 * through the Documents API and posted as `content.media {id, title}`; a video is uploaded in parts, finalized and polled until AVAILABLE — when that
 * does not happen before the deadline the answer is 'processing' with resume state {video, started_at}, and resume()
 * polls again and creates the post once AVAILABLE. `POST /rest/posts` (commentary escaped as "little text") → 201,
 * id in `x-restli-id`; url https://www.linkedin.com/feed/update/<urn>. first_comment: `POST
 * /rest/socialActions/<urn>/comments`; a failed comment keeps the published post.
 * Visibility: PUBLIC, or CONNECTIONS for privacy 'private' on a member author.
 */
export function createLinkedinAdapter(opts: LinkedinOptions = {}): NetworkAdapter {
  const apiBase = trimBase(opts.apiBase ?? LINKEDIN_API_BASE);
  const version = opts.version ?? LINKEDIN_VERSION;
  const pollIntervalMs = opts.pollIntervalMs ?? 3000;
  const reserveMs = opts.reserveMs ?? 5000;
  const resumeAfter = opts.resumeAfterSeconds ?? 30;
  const maxProcessingMs = (opts.maxProcessingSeconds ?? 6 * 3600) * 1000;

  function api(credentials: Record<string, string>): { api: LinkedinApi; author: string } | Failure {
    const token = (credentials.access_token ?? '').trim();
    if (!token) return { ok: false, kind: 'reauth', error: 'linkedin needs an access_token: connect LinkedIn again' };
    const author = (credentials.author_urn ?? '').trim();
    if (!/^urn:li:(person|organization):[^\s]+$/.test(author)) return { ok: false, kind: 'reauth', error: 'linkedin needs the author URN of the account: connect LinkedIn again' };
    return {
      author,
      api: {
        base: apiBase,
        token,
        headers: { authorization: `Bearer ${token}`, 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0', accept: 'application/json' },
      },
    };
  }

  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const token = (ctx.credentials.access_token ?? '').trim();
    if (!token) return { ok: false, kind: 'reauth', error: 'linkedin needs an access_token: connect LinkedIn again' };
    const me = await userinfo(ctx, apiBase, token);
    if ('ok' in me) return me;
    const author = (ctx.credentials.author_urn ?? '').trim() || me.urn;
    return { ok: true, handle: me.name, credentials: { ...ctx.credentials, access_token: token, author_urn: author } };
  }

  async function createPost(ctx: NetworkContext, a: { api: LinkedinApi; author: string }, content: PublishContent, media?: Record<string, unknown>): Promise<Published | Failure> {
    const body: Record<string, unknown> = {
      author: a.author,
      commentary: escapeLittleText(content.text),
      visibility: content.privacy === 'private' && a.author.startsWith('urn:li:person:') ? 'CONNECTIONS' : 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      ...(media ? { content: media } : {}),
    };
    const res = await request(ctx, `${a.api.base}/rest/posts`, jsonInit('POST', body, a.api.headers));
    if (res.status !== 201 && res.status !== 200) return linkedinFailure(res, 'post', ctx.now());
    const urn = res.headers.get('x-restli-id') ?? res.headers.get('x-linkedin-id') ?? str(field(res.json, 'id'));
    if (!urn) return { ok: false, kind: 'transient', error: 'linkedin accepted the post but answered without its id (x-restli-id)' };
    const result: Published = { ok: true, status: 'published', id: urn, url: postUrl(urn) };
    if (content.first_comment !== undefined && content.first_comment.trim()) {
      try {
        const comment = await request(ctx, `${a.api.base}/rest/socialActions/${encodeUrn(urn)}/comments`, jsonInit('POST', {
          actor: a.author, object: urn, message: { text: escapeLittleText(content.first_comment) },
        }, a.api.headers));
        const id = comment.status === 201 || comment.status === 200 ? comment.headers.get('x-restli-id') ?? str(field(comment.json, 'id')) : undefined;
        if (id) result.comment_id = id;
      } catch {
        // the post exists: a comment that times out or cannot be sent is left out
      }
    }
    return result;
  }

  /** Polls the video until AVAILABLE within the deadline; then creates the post, else answers 'processing'. */
  async function finishVideo(ctx: NetworkContext, a: { api: LinkedinApi; author: string }, content: PublishContent, video: string, startedAt: number): Promise<PublishOutcome> {
    for (let first = true; ; first = false) {
      if (!first) {
        if (ctx.now() + pollIntervalMs + reserveMs >= ctx.deadline) break;
        await ctx.sleep(pollIntervalMs);
      }
      const state = await videoStatus(ctx, a.api, video);
      if ('ok' in state) return state;
      if (state.status === 'FAILED') return rejected(`linkedin could not process the video: ${state.reason}`, 'bad_media');
      if (state.status === 'AVAILABLE') return createPost(ctx, a, content, { media: { id: video, ...(content.title ? { title: content.title } : {}) } });
    }
    if (ctx.now() - startedAt > maxProcessingMs) {
      return rejected(`linkedin was still processing the video ${Math.round((ctx.now() - startedAt) / 60000)} minutes after the upload; nothing was posted`, 'bad_media');
    }
    return { ok: true, status: 'processing', id: video, url: '', resume: { after_seconds: resumeAfter, state: { video, started_at: String(startedAt) } } };
  }

  async function publish(content: PublishContent, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = api(ctx.credentials);
    if ('ok' in a) return a;
    const invalid = checkLinkedin(content);
    if (invalid) return invalid;
    const doc = content.options?.document;
    if (doc) {
      if (!ctx.fetchDocument) return rejected('linkedin document posts need a document download, which this deployment does not offer');
      const file = await ctx.fetchDocument(doc.url);
      if (file.bytes.length > LINKEDIN_DOCUMENT_MAX_BYTES) {
        return badMedia(`linkedin takes documents up to ${LINKEDIN_DOCUMENT_MAX_BYTES} bytes; the document has ${file.bytes.length}`,
          'The document is larger than LinkedIn accepts (100 MB). Nothing was posted.', 'Send a smaller PDF (at most 100 MB and 300 pages).');
      }
      const document = await uploadDocument(ctx, a.api, a.author, file);
      if (typeof document !== 'string') return document;
      return createPost(ctx, a, content, { media: { id: document, title: doc.title } });
    }
    const files: FetchedMedia[] = [];
    for (const [i, item] of content.media.entries()) {
      const file = await ctx.fetchMedia(item.url);
      const unfit = checkFile('linkedin', item.kind, file, i);
      if (unfit) return unfit;
      files.push(file);
    }
    if (content.media[0]?.kind === 'video') {
      const video = await uploadVideo(ctx, a.api, a.author, files[0]);
      if (typeof video !== 'string') return video;
      return finishVideo(ctx, a, content, video, ctx.now());
    }
    const images: string[] = [];
    for (const [i, file] of files.entries()) {
      const image = await uploadImage(ctx, a.api, a.author, file, i + 1);
      if (typeof image !== 'string') return image;
      images.push(image);
    }
    const withAlt = (id: string, i: number) => ({ id, ...(content.media[i].alt ? { altText: content.media[i].alt } : {}) });
    const media = images.length === 0 ? undefined
      : images.length === 1 ? { media: withAlt(images[0], 0) }
        : { multiImage: { images: images.map(withAlt) } };
    return createPost(ctx, a, content, media);
  }

  async function resume(content: PublishContent, state: Record<string, string>, ctx: NetworkContext): Promise<PublishOutcome> {
    const a = api(ctx.credentials);
    if ('ok' in a) return a;
    const video = state.video;
    if (!video) return rejected('linkedin resume state has no video URN');
    const startedAt = Number(state.started_at);
    return finishVideo(ctx, a, content, video, Number.isFinite(startedAt) ? startedAt : ctx.now());
  }

  return {
    name: 'linkedin',
    verify: (ctx) => guarded(() => verify(ctx)),
    check: checkLinkedin,
    publish: (content, ctx) => guarded(() => publish(content, ctx)),
    resume: (content, state, ctx) => guarded(() => resume(content, state, ctx)),
    readBack: linkedinReadBack(apiBase, version),
    ...createLinkedinManagement(apiBase, version),
  };
}
