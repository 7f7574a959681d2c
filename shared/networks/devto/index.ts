import { guarded, jsonInit, rejected, request } from '../http';
import type { Failure, NetworkAdapter, NetworkContext, PublishContent, Published } from '../../ports/networks';
import { trimBase } from '../../domain/values';
import { articleStatus } from '../article-status';
import { articleTitle } from '../article-title';
import { checkDevto, DEVTO_MAX_BODY_BYTES, DEVTO_MAX_TITLE_CHARS } from './limits';
import { devtoReadBack } from './read-back';
import { devtoFailure } from './failure';
import { createDevtoManagement } from './manage';
import { createDevtoVerifier, headers } from './verify-credentials';
import { devtoMetrics } from './analytics';

export { DEVTO_MAX_BODY_BYTES, DEVTO_MAX_TITLE_CHARS };


/** Forem allows at most 4 tags per article. */
export const DEVTO_MAX_TAGS = 4;

export interface DevtoOptions { apiBase?: string }

/**
 * DEV (dev.to, Forem API v1).
 *
 * Credentials: api_key (header `api-key`), optional default_status 'published' (default) | 'draft' ('publish' is
 * accepted and normalised to 'published').
 *
 * Endpoints: GET <apiBase>/api/users/me (verify → @username); POST <apiBase>/api/articles
 * {article:{title, body_markdown, published, tags?, main_image?}} → {id, url}. Every call sends
 * `Accept: application/vnd.forem.api-v1+json`.
 *
 * Content: content.title is the article title; when absent, the first line of the text (leading markdown `#`
 * removed, at most 100 characters) is used. The text is the markdown body, sent whole. Tags come from #hashtags in
 * the text (lower-cased, letters and digits only, all-digit ones skipped, first 4). One image becomes main_image (a
 * URL; dev.to has no upload API); video is refused (bad_media). A draft is returned as ok/status 'published' with
 * the draft's URL.
 *
 * Failures: 401 (bad or revoked key) / 403 → reauth; 422 and other 4xx → rejected with dev.to's error text; 429 →
 * rate_limited (Retry-After, else "try again in N seconds" in the body, else 300 s); 5xx → transient.
 */
export function createDevtoAdapter({ apiBase = 'https://dev.to' }: DevtoOptions = {}): NetworkAdapter {
  const base = trimBase(apiBase);
  return {
    name: 'devto',
    verify: createDevtoVerifier({ apiBase }).verify,
    check: checkDevto,
    publish: (content, ctx) => guarded(() => publish(base, content, ctx)),
    readBack: devtoReadBack(base),
    metrics: devtoMetrics(base),
    ...createDevtoManagement(base),
  };
}

async function publish(base: string, content: PublishContent, ctx: NetworkContext): Promise<Published | Failure> {
  const apiKey = (ctx.credentials.api_key ?? '').trim();
  if (!apiKey) return { ok: false, kind: 'reauth', error: 'api_key is missing' };
  const status = articleStatus(ctx.credentials.default_status);
  if (!status) return rejected("default_status must be 'published' or 'draft'");
  const problem = checkDevto(content);
  if (problem) return problem;

  const tags = hashtags(content.text);
  const image = content.media.find((m) => m.kind === 'image');
  const article = {
    title: articleTitle(content),
    body_markdown: content.text,
    published: status === 'published',
    ...(tags.length ? { tags } : {}),
    ...(image ? { main_image: image.url } : {}),
  };
  const res = await request(ctx, `${base}/api/articles`, jsonInit('POST', { article }, headers(apiKey)));
  if (res.status !== 201 && res.status !== 200) return devtoFailure(res, 'creating the article');
  const body = res.json as { id?: unknown; url?: unknown } | undefined;
  if (!body || (typeof body.id !== 'number' && typeof body.id !== 'string') || typeof body.url !== 'string') {
    return { ok: false, kind: 'transient', error: `dev.to answered ${res.status} without an article id and url` };
  }
  return { ok: true, status: 'published', id: String(body.id), url: body.url };
}

/** #hashtags of the text as dev.to tags: lower-case letters and digits only, no all-digit tags, unique, at most 4. */
export function hashtags(text: string): string[] {
  const tags: string[] = [];
  for (const m of text.matchAll(/(?:^|[^\p{L}\p{N}_&/#])#([\p{L}\p{N}_]+)/gu)) {
    const tag = m[1].toLowerCase().replace(/[^a-z0-9]/g, '');
    if (!tag || /^\d+$/.test(tag) || tag.length > 30 || tags.includes(tag)) continue;
    tags.push(tag);
    if (tags.length === DEVTO_MAX_TAGS) break;
  }
  return tags;
}


