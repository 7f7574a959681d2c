import type { PlatformName } from '../../../shared/domain/platforms';
import { escapeHtml, page } from '../../../shared/http/reply';
import type { RecordedRequest } from './server';

/*
 * The sandbox inbox (`GET /dev/sandbox`, `/dev/sandbox/inbox`): which recorded requests of the simulators are a post,
 * a part of one, or a delete or edit of one, read in each network's own request shapes.
 */

/** One thing a simulated network received: a post, a thread part, a comment, or a webhook delivery. */
export interface InboxEntry {
  network: PlatformName | 'webhook';
  received_at: string;
  method: string;
  path: string;
  text: string | null;
  title: string | null;
  media: string[];
  /** True for a reply in a thread or a first comment (it answers an earlier entry). */
  reply: boolean;
  /** A delete or an edit of a post published earlier (DELETE / PATCH /api/posts/{id}). */
  change?: 'deleted' | 'edited';
}

/** Which requests publish something, per network (the rest sign in, check, upload or poll). */
const PUBLISH_PATHS: Record<string, RegExp> = {
  telegram: /^\/bot[^/]+\/send(Message|Photo|Video|MediaGroup)$/,
  bluesky: /^\/xrpc\/com\.atproto\.repo\.createRecord$/,
  mastodon: /^\/api\/v1\/statuses$/,
  discord: /^\/api\/webhooks\//,
  wordpress: /^\/wp-json\/wp\/v2\/posts$/,
  devto: /^\/api\/articles$/,
  hashnode: /^\/$/,
  slack: /^\/services\//,
  tiktok: /^\/v2\/post\/publish\/(video|content)\/init\/$/,
  youtube: /^\/upload\/youtube\/v3\/videos$/,
  reddit: /^\/api\/(submit|comment)$/,
  linkedin: /^\/rest\/(posts|socialActions\/.+\/comments)$/,
  facebook: /\/(feed|photos|videos|media|media_publish|comments)$/,
  x: /^\/2\/tweets$/,
  threads: /^\/v1\.0\/\d+\/threads$/,
  pinterest: /^\/v5\/pins$/,
  google_business: /^\/v4\/accounts\/\d+\/locations\/\d+\/localPosts$/,
};

const TEXT_KEYS = ['text', 'caption', 'content', 'message', 'commentary', 'body_markdown', 'contentMarkdown', 'status', 'description', 'summary'];
const TITLE_KEYS = ['title', 'name'];
const MEDIA_KEYS = ['photo', 'video', 'image_url', 'video_url', 'url', 'file_url', 'video_url', 'source_url', 'sourceUrl'];

function fieldsOf(req: RecordedRequest): Record<string, unknown> {
  if (req.json && typeof req.json === 'object') return req.json as Record<string, unknown>;
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(req.text));
  return Object.fromEntries(req.url.searchParams);
}

/** The first string under any of `keys`, searched breadth-first through nested objects. */
function find(value: unknown, keys: string[], depth = 0): string | undefined {
  if (!value || typeof value !== 'object' || depth > 4) return undefined;
  const obj = value as Record<string, unknown>;
  for (const k of keys) if (typeof obj[k] === 'string' && obj[k] !== '') return obj[k] as string;
  for (const v of Object.values(obj)) {
    const found = find(v, keys, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Which requests delete or edit a published post, per network (method and path as the network takes them). */
const CHANGE_PATHS: Record<string, Array<[string, RegExp, 'deleted' | 'edited']>> = {
  telegram: [['POST', /^\/bot[^/]+\/deleteMessage$/, 'deleted'], ['POST', /^\/bot[^/]+\/editMessage(Text|Caption)$/, 'edited']],
  bluesky: [['POST', /^\/xrpc\/com\.atproto\.repo\.deleteRecord$/, 'deleted']],
  mastodon: [['DELETE', /^\/api\/v1\/statuses\/[^/]+$/, 'deleted'], ['PUT', /^\/api\/v1\/statuses\/[^/]+$/, 'edited']],
  discord: [['DELETE', /^\/api\/webhooks\/.+\/messages\/\d+$/, 'deleted'], ['PATCH', /^\/api\/webhooks\/.+\/messages\/\d+$/, 'edited']],
  wordpress: [['DELETE', /^\/wp-json\/wp\/v2\/posts\/\d+$/, 'deleted'], ['POST', /^\/wp-json\/wp\/v2\/posts\/\d+$/, 'edited']],
  x: [['DELETE', /^\/2\/tweets\/\d+$/, 'deleted']],
  facebook: [['DELETE', /^\/v[\d.]+\/\d+(_\d+)?$/, 'deleted'], ['POST', /^\/v[\d.]+\/\d+(_\d+)?$/, 'edited']],
  linkedin: [['DELETE', /^\/rest\/posts\/[^/]+$/, 'deleted'], ['POST', /^\/rest\/posts\/[^/]+$/, 'edited']],
  youtube: [['DELETE', /^\/youtube\/v3\/videos$/, 'deleted'], ['PUT', /^\/youtube\/v3\/videos$/, 'edited']],
  reddit: [['POST', /^\/api\/del$/, 'deleted'], ['POST', /^\/api\/editusertext$/, 'edited']],
  devto: [['PUT', /^\/api\/articles\/\d+$/, 'edited']],
};

/** Requests whose path alone does not say (GraphQL on one path, dev.to's unpublish is an update): by their body. */
function changeOf(network: PlatformName, req: RecordedRequest): 'deleted' | 'edited' | undefined {
  const fields = req.method === 'POST' || req.method === 'PUT' ? fieldsOf(req) : {};
  if (network === 'hashnode' && req.method === 'POST' && req.path === '/') {
    const query = String(fields.query ?? '');
    return /removePost\(/.test(query) ? 'deleted' : /updatePost\(/.test(query) ? 'edited' : undefined;
  }
  const change = CHANGE_PATHS[network]?.find(([method, path]) => req.method === method && path.test(req.path))?.[2];
  if (network === 'devto' && change === 'edited' && (fields.article as { published?: unknown } | undefined)?.published === false) return 'deleted';
  return change;
}

export function changeEntry(network: PlatformName, req: RecordedRequest, at: string | undefined): InboxEntry | undefined {
  const change = changeOf(network, req);
  if (!change) return undefined;
  const fields = change === 'edited' ? fieldsOf(req) : {};
  return {
    network, received_at: at ?? new Date().toISOString(), method: req.method, path: req.path,
    text: change === 'edited' ? find(fields, TEXT_KEYS) ?? null : null, title: change === 'edited' ? find(fields, TITLE_KEYS) ?? null : null, media: [], reply: false, change,
  };
}

export function publishEntry(network: PlatformName, req: RecordedRequest, at: string | undefined): InboxEntry | undefined {
  if (req.method !== 'POST' || !PUBLISH_PATHS[network]?.test(req.path)) return undefined;
  const fields = fieldsOf(req);
  if (network === 'hashnode' && !/publishPost|createDraft/.test(String(fields.query ?? ''))) return undefined;
  // a Threads carousel item is part of the carousel post, not a post of its own
  if (network === 'threads' && fields.is_carousel_item === 'true') return undefined;
  const facebookLike = network === 'facebook' && /\/media$/.test(req.path) && 'image_url' in fields ? 'instagram' : network;
  const media = [find(fields, MEDIA_KEYS)].filter((m): m is string => !!m && /^https?:\/\//.test(m));
  const reply = find(fields, ['in_reply_to_id', 'reply', 'in_reply_to_tweet_id', 'thing_id', 'parent', 'reply_to_id']) !== undefined ||
    /comments$/.test(req.path) || (!!fields.reply && typeof fields.reply === 'object');
  return {
    network: facebookLike as PlatformName, received_at: at ?? new Date().toISOString(), method: req.method, path: req.path,
    text: find(fields, TEXT_KEYS) ?? null, title: find(fields, TITLE_KEYS) ?? null, media, reply,
  };
}

/** The inbox page of these entries (newest first): what each simulated network received. */
export function inboxPage(entries: InboxEntry[]): string {
  const anchored = new Set<string>();
  // the newest entry of each network is its anchor: a post's url in sandbox mode is <inbox>#<network>
  const anchor = (n: string) => (anchored.has(n) ? '' : (anchored.add(n), ` id="${escapeHtml(n)}"`));
  const rows = entries.map((e) => `<li${anchor(e.network)}><p><b>${escapeHtml(e.network)}</b>${e.reply ? ' (reply)' : ''}${e.change ? ` (${e.change})` : ''} · <time>${escapeHtml(e.received_at)}</time></p>` +
    (e.title ? `<p><b>${escapeHtml(e.title)}</b></p>` : '') + (e.text ? `<p>${escapeHtml(e.text)}</p>` : '') +
    (e.media.length ? `<ul>${e.media.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '') + '</li>').join('');
  return page('Sandbox inbox', `<main><h1>Sandbox inbox</h1><p>What the simulated networks received, newest first. ` +
    `Nothing here left this machine.</p>${rows ? `<ol>${rows}</ol>` : '<p>Nothing yet: publish a post and reload this page.</p>'}</main>`);
}
